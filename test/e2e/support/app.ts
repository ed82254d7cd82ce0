// Moves a person makes in the app, and artifacts: screenshots under test-results/e2e/.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'

export const ARTIFACTS = join('test-results', 'e2e')

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true })
  const path = join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path })
  return path
}

/** Opens the app and waits until it has its first snapshot from the engine. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.waitForSelector('[data-testid=app]', { timeout: 20_000 })
}

export async function createEndpoint(page: Page, input: { name: string; scheme: string; secret?: string; dedupeHeader?: string }): Promise<void> {
  await page.click('[data-testid=nav-endpoints]')
  await page.fill('[data-testid=endpoint-name]', input.name)
  await page.selectOption('[data-testid=endpoint-scheme]', input.scheme)
  if (input.secret) await page.fill('[data-testid=endpoint-secret]', input.secret)
  if (input.dedupeHeader) {
    // A new endpoint starts on the automatic key; a header of the test's own is picked first.
    await page.selectOption('[data-testid=endpoint-dedupe-type]', 'header')
    await page.fill('[data-testid=endpoint-dedupe-text]', input.dedupeHeader)
  }
  await page.click('[data-testid=create-endpoint]')
  await page.waitForSelector(`[data-testid=endpoint-card] h3:text-is("${input.name}")`)
}

export async function createSubscription(page: Page, input: { name: string; policy: string }): Promise<void> {
  await page.click('[data-testid=nav-subscriptions]')
  await page.fill('[data-testid=subscription-name]', input.name)
  await page.selectOption('[data-testid=subscription-policy]', input.policy)
  await page.click('[data-testid=create-subscription]')
  await page.waitForSelector(`[data-testid=subscription-card] h3:text-is("${input.name}")`)
}

export async function sendEvent(page: Page, eventType = 'booking.created'): Promise<void> {
  await page.click('[data-testid=nav-sender]')
  await page.fill('[data-testid=sender-event-type]', eventType)
  await page.click('[data-testid=send]')
  await page.waitForSelector('[data-testid=toast]:has-text("Sent 1 event")')
}

/** Picks an export (HAR) in the timeline's import dialog and replays it to its endpoint, re-signed with `secret`. */
export async function replayImported(page: Page, file: { name: string; text: string }, secret: string): Promise<void> {
  await page.click('[data-testid=import-open]')
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=import-pick]')])
  await chooser.setFiles({ name: file.name, mimeType: 'application/json', buffer: Buffer.from(file.text) })
  await page.check('[data-testid=import-resign]')
  await page.fill('[data-testid=import-secret]', secret)
  await page.click('[data-testid=import-replay]')
}

/** A timeline row, found by a property, once it satisfies `where` (a CSS attribute selector). */
export function rowSelector(where: string): string {
  return `[data-testid=timeline-row]${where}`
}

/** Switches the app to the virtual clock: policy waits pass at once. */
export async function useVirtualClock(page: Page): Promise<void> {
  await page.click('[data-testid=clock-mode] button:text-is("virtual")')
  await page.waitForSelector('[data-testid=clock-mode] button.active:text-is("virtual")')
}

export interface Loop {
  endpoint: Parameters<typeof createEndpoint>[1]
  /** A rule preset added to the endpoint, and what its rule sentence must show (a selector suffix). */
  preset?: { id: string; sentence?: string }
  subscription: Parameters<typeof createSubscription>[1]
  eventType?: string
}

/** One loop made the way a person does: the endpoint (and its rule), a subscription, one event sent; ends on the timeline. */
export async function sendThroughLoop(page: Page, loop: Loop): Promise<void> {
  await createEndpoint(page, loop.endpoint)
  if (loop.preset) {
    await page.click(`[data-testid=preset-${loop.preset.id}]`)
    await page.waitForSelector(`[data-testid=rule-sentence]${loop.preset.sentence ?? ''}`)
  }
  await createSubscription(page, loop.subscription)
  await sendEvent(page, loop.eventType)
  await page.click('[data-testid=nav-timeline]')
}

/** The orders loop: a signed Standard Webhooks endpoint deduping on webhook-id, provider A's policy, one order.paid. */
export const ORDERS = (secret: string): Loop => ({
  endpoint: { name: 'orders', scheme: 'standard-webhooks', secret, dedupeHeader: 'webhook-id' },
  subscription: { name: 'orders feed', policy: 'pandoktorek' },
  eventType: 'order.paid',
})

/**
 * Starts recording, then sends one booking.created through a fresh fail-first loop (provider A's
 * policy) on the virtual clock, where its 2, 4 and 8 minute waits pass at once, here and in a
 * replay; resolves with the event id once its row has succeeded on the 4th attempt, the
 * recording still running.
 */
export async function recordFailFirstLoop(page: Page): Promise<string> {
  await useVirtualClock(page)
  await page.click('[data-testid=record]')
  await page.waitForSelector('[data-testid=record-stop]')
  await sendThroughLoop(page, {
    endpoint: { name: 'bookings', scheme: 'standard-webhooks', dedupeHeader: 'webhook-id' },
    preset: { id: 'fail-first' },
    subscription: { name: 'clinic feed', policy: 'pandoktorek' },
    eventType: 'booking.created',
  })
  const row = page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]'))
  await row.waitFor()
  return (await row.getAttribute('data-event-id'))!
}
