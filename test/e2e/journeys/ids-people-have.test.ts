// The ids people have: the one their app logged (Stripe's evt_…, GitHub's X-GitHub-Delivery), and
// the event_id their own sender puts in every body. Searching the timeline by such an id finds its
// row, which is labelled with it (Hookloop's id beside); a new endpoint made in the app finds the
// event id on its own, flags a second arrival of it, and says where it found it.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli'
import { rowSelector } from '../support/app'
import { postJson } from '../support/post'
import { journey, screenRows, shot, withStore } from '../support/journey'

const day = journey('ids-people-have', { timeoutMs: 30_000 })
const SECRET = 'whsec_idsPeopleHaveJourney'

/** Types into the top bar's search, as a person does (the filter follows after a short pause). */
async function search(page: Page, text: string): Promise<void> {
  await page.fill('#search', text)
}

describe('journey: the ids people have', () => {
  it('search by a provider’s own id finds the row, and the row is labelled with it', async () => {
    const served = await day.serve()
    const page = day.page

    // An endpoint made in the app, left on its automatic key.
    await page.click('[data-testid=nav-endpoints]')
    await page.fill('[data-testid=endpoint-name]', 'inbox')
    await page.selectOption('[data-testid=endpoint-scheme]', '')
    expect.soft(await page.inputValue('[data-testid=endpoint-dedupe-type]')).toBe('auto')
    await shot(page, 'ids-people-have-0-new-endpoint')
    await page.click('[data-testid=create-endpoint]')
    await page.locator('[data-testid=endpoint-card][data-endpoint=inbox]').waitFor()

    // A Stripe subscription to it, sent from the Sender: its consumer knows the event as evt_….
    await page.click('[data-testid=nav-subscriptions]')
    await page.fill('[data-testid=subscription-name]', 'stripe feed')
    await page.selectOption('[data-testid=subscription-provider]', 'stripe')
    await page.selectOption('[data-testid=subscription-target]', { label: 'our endpoint inbox (loop)' })
    await page.fill('[data-testid=subscription-secret]', SECRET)
    await page.click('[data-testid=create-subscription]')
    await page.locator('[data-testid=subscription-card]:has(h3:text-is("stripe feed"))').waitFor()
    const subscription = withStore(day.data, (s) => s.all<{ id: string }>('SELECT id FROM subscriptions WHERE name = ?', 'stripe feed'))[0]!.id
    await page.click('[data-testid=nav-sender]')
    await page.selectOption('[data-testid=sender-subscription]', subscription)
    await page.selectOption('[data-testid=sender-event-type]', 'payment_intent.succeeded')
    await page.click('[data-testid=send]')
    await page.waitForSelector('[data-testid=toast]:has-text("Sent 1 event to stripe feed")')

    // GitHub delivers into the same endpoint from outside (another process, real traffic).
    const cli = await runCli(['trigger', 'github', 'push', '--to', `${served.receiverUrl}/h/inbox`, '--secret', 'gh-journey-secret', '--json'])
    expect(cli.code, cli.stderr).toBe(0)
    const github = (JSON.parse(cli.stdout) as { provider_event_id: { value: string; where: string } }).provider_event_id
    expect(github.where).toBe('x-github-delivery')

    await page.click('[data-testid=nav-timeline]')
    const delivery = page.locator(rowSelector('[data-status=succeeded]')).first()
    await delivery.waitFor()
    const ids = withStore(day.data, (s) => s.all<{ event_id: string; consumer_event_id: string }>('SELECT event_id, consumer_event_id FROM deliveries'))[0]!
    expect(ids.consumer_event_id).toMatch(/^evt_/)
    // The delivery's row reads the evt_ id, Hookloop's beside it.
    const label = await delivery.locator('[data-testid=row-event-id]').innerText()
    expect.soft(label.startsWith(ids.consumer_event_id), `row label "${label}"`).toBe(true)
    expect.soft(label).toContain(ids.event_id)
    // The GitHub request's row reads its X-GitHub-Delivery (the endpoint's automatic key).
    const received = page.locator(rowSelector(`[data-status=received][data-event-id="${github.value}"]`))
    await received.waitFor()
    expect.soft(await received.locator('[data-testid=row-event-id]').innerText()).toBe(github.value)
    await shot(page, 'ids-people-have-1-rows')

    // Search by the start of the evt_ id, in another case: that row alone.
    await search(page, ids.consumer_event_id.slice(0, 12).toUpperCase())
    await page.locator('[data-testid=timeline-row]').nth(1).waitFor({ state: 'detached' })
    expect((await screenRows(page)).map((r) => r.eventId)).toEqual([ids.event_id])
    await shot(page, 'ids-people-have-2-search-evt')
    // The inspector names both ids.
    await page.locator(`${rowSelector('[data-status=succeeded]')} .tl-meta`).click()
    const inspector = page.locator('[data-testid=inspector]')
    expect.soft(await inspector.locator('[data-testid=inspector-event-id]').innerText()).toBe(ids.consumer_event_id)
    expect.soft(await inspector.locator('[data-testid=inspector-hookloop-id]').innerText()).toContain(ids.event_id)
    await shot(page, 'ids-people-have-3-inspector')
    await page.keyboard.press('Escape')

    // Search by GitHub's delivery id: the received row alone.
    await search(page, github.value.slice(0, 13))
    await page.locator(rowSelector(`[data-event-id="${github.value}"]`)).waitFor()
    await page.locator(rowSelector('[data-status=succeeded]')).waitFor({ state: 'detached' })
    expect((await screenRows(page)).map((r) => r.eventId)).toEqual([github.value])
    await shot(page, 'ids-people-have-4-search-github')
    await search(page, '')
  })

  it('a new endpoint flags a duplicate event_id and shows its automatic key', async () => {
    const page = day.page
    await page.click('[data-testid=nav-endpoints]')
    await page.fill('[data-testid=endpoint-name]', 'orders')
    await page.selectOption('[data-testid=endpoint-scheme]', '')
    await page.click('[data-testid=create-endpoint]')
    const card = page.locator('[data-testid=endpoint-card][data-endpoint=orders]')
    await card.waitFor()
    expect.soft(await card.locator('[data-testid=endpoint-dedupe-badge]').innerText()).toBe('dedupe: auto')
    expect.soft(await card.locator('[data-testid=dedupe-key-state]').innerText()).toMatch(/^Auto: a provider's event id header .* else the body's event_id or id/)
    await card.scrollIntoViewIfNeeded()
    await shot(page, 'ids-people-have-5-endpoint-auto')
    const url = (await card.locator('[data-testid=endpoint-url]').innerText()).trim()

    // The seed envelope, posted twice by the person's own sender.
    const body = JSON.stringify({ event_id: 'a3c1f0e2-7d4b-4e8f-9a61-2b5c8d9e0f11', event_type: 'booking.created', payload: { booking_id: 'b-1' } })
    expect(await postJson(url, body, {})).toBe(200)
    expect(await postJson(url, body, {})).toBe(200)

    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-event-id="a3c1f0e2-7d4b-4e8f-9a61-2b5c8d9e0f11"]'))
    await row.waitFor()
    await page.locator(rowSelector('[data-event-id="a3c1f0e2-7d4b-4e8f-9a61-2b5c8d9e0f11"][data-attempts="2"]')).waitFor()
    const shown = (await screenRows(page)).find((r) => r.eventId === 'a3c1f0e2-7d4b-4e8f-9a61-2b5c8d9e0f11')
    expect.soft(shown?.duplicates, 'the duplicate badge').toBe(1)
    expect.soft(await row.locator('[data-testid=row-event-id]').innerText()).toBe('a3c1f0e2-7d4b-4e8f-9a61-2b5c8d9e0f11')
    expect.soft(withStore(day.data, (s) => s.all<{ dedupe_key: string; duplicate_number: number }>("SELECT dedupe_key, duplicate_number FROM requests WHERE path = '/h/orders' ORDER BY id"))).toEqual([
      { dedupe_key: 'a3c1f0e2-7d4b-4e8f-9a61-2b5c8d9e0f11', duplicate_number: 1 },
      { dedupe_key: 'a3c1f0e2-7d4b-4e8f-9a61-2b5c8d9e0f11', duplicate_number: 2 },
    ])
    await row.locator('.tl-meta').click()
    const key = page.locator('[data-testid=inspector] [data-testid=request-dedupe-key]')
    await key.waitFor()
    expect.soft(await key.innerText()).toBe('a3c1f0e2-7d4b-4e8f-9a61-2b5c8d9e0f11 (auto: body.event_id)')
    expect.soft(await page.locator('[data-testid=inspector] [data-testid=duplicate-number]').innerText()).toMatch(/^duplicate arrival #2 of this dedupe key/)
    await shot(page, 'ids-people-have-6-duplicate-inspector')
    await page.keyboard.press('Escape')

    // The person turns the key off: the card says so, and a third arrival is a row of its own.
    await page.click('[data-testid=nav-endpoints]')
    await card.locator('[data-testid=dedupe-key-type]').selectOption('none')
    await card.locator('[data-testid=dedupe-key-save]').click()
    await card.locator('[data-testid=endpoint-dedupe-badge]:text-is("dedupe: none")').waitFor()
    expect.soft(await card.locator('[data-testid=dedupe-key-state]').innerText()).toMatch(/^No dedupe key/)
    expect(await postJson(url, body, {})).toBe(200)
    expect.soft(withStore(day.data, (s) => s.all<{ dedupe_key: string | null }>("SELECT dedupe_key FROM requests WHERE path = '/h/orders' ORDER BY id DESC LIMIT 1"))).toEqual([{ dedupe_key: null }])
  })
})
