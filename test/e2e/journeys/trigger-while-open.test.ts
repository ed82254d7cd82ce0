// Mid-morning, the app open after "Try the loop": a `hookloop trigger stripe …` (another process,
// its own sender and its own attempt numbers) delivers into the loop's endpoint. The triggered
// event gets a row of its own; the loop's delivery row keeps exactly its four attempts, and its
// attempt #1 still inspects its own request. Every captured request is in exactly one row.
import { describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli'
import { rowSelector } from '../support/app'
import { journey, screenRows, settle, shot, showClock, withStore } from '../support/journey'

const day = journey('trigger-while-open', { timeoutMs: 30_000 })

interface Triggered {
  ok: boolean
  /** Hookloop's own id for the event. */
  event_id: string
  /** The id the consumer sees, and where in the request it sees it. */
  provider_event_id: { value: string; where: string } | null
  attempts: { n: number; outcome: string }[]
}

describe('journey: hookloop trigger into an endpoint while the app is open', () => {
  it('the triggered event has its own row; no delivery row gains chips', async () => {
    const served = await day.serve()
    const page = day.page
    await page.click('[data-testid=try-the-loop]')
    const loop = page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]'))
    await loop.waitFor()
    const loopEvent = (await loop.getAttribute('data-event-id'))!
    const loopMarks = await loop.locator('.mark[data-tone]').allInnerTexts()
    expect(loopMarks).toEqual(['503', '503', '503', '200'])

    // Another process delivers a Stripe event into the same endpoint, with its own attempts #1, #2 …
    const cli = await runCli(['trigger', 'stripe', 'payment_intent.succeeded', '--to', `${served.receiverUrl}/h/try-the-loop`, '--secret', 'whsec_trigger_journey', '--json'])
    expect(cli.code, cli.stderr).not.toBe(2)
    const triggered = JSON.parse(cli.stdout) as Triggered
    expect(triggered.attempts.length).toBeGreaterThan(0)
    // It names the id the consumer sees in the body (Stripe's evt_…) beside Hookloop's own.
    expect.soft(triggered.provider_event_id?.value).toMatch(/^evt_/)

    // The store holds the loop's four requests and the trigger's; the screen shows all of them.
    const requests = withStore(day.data, (s) => s.count('SELECT COUNT(*) FROM requests'))
    expect(requests).toBe(4 + triggered.attempts.length)
    await page.locator(`[data-testid=store-size][data-requests="${requests}"]`).waitFor()

    // The trigger's requests reach the screen with no click: no clock was picked after the loop,
    // so live traffic shows in a group of its own beside the loop's.
    const simulation = (await loop.getAttribute('data-clock'))!
    expect(simulation).not.toBe('wall')
    await page.waitForSelector('[data-testid=clock-group][data-clock=wall]')
    // On the loop's clock alone, its row holds exactly its own attempts, and no chip of the
    // trigger's (real traffic, on the wall clock) joins it.
    await showClock(page, simulation)
    const inLoop = await screenRows(page)
    expect.soft(inLoop.map((r) => r.eventId), 'rows on the loop’s clock').toEqual([loopEvent])
    const loopRow = inLoop.find((r) => r.eventId === loopEvent)
    expect.soft(loopRow?.attempts).toBe(4)
    expect.soft(loopRow?.marks).toEqual(loopMarks)
    // Its badges are its own attempts' too: their signatures were valid, the trigger's are not its.
    expect.soft(loopRow?.signature).toBe('valid')
    expect.soft(loopRow?.duplicates, 'the loop row’s duplicate arrivals').toBe(3)

    // Every clock, grouped: every captured request is in exactly one row on screen.
    await showClock(page, '')
    await settle(async () => (await screenRows(page)).reduce((n, r) => n + r.marks.length, 0) >= requests)
    await shot(page, 'trigger-while-open-1-rows')
    const shown = await screenRows(page)
    expect.soft(shown.find((r) => r.eventId === loopEvent)?.marks, 'the loop row, grouped').toEqual(loopMarks)
    // The trigger's requests are a row (or rows) of their own, on the wall clock.
    const others = shown.filter((r) => r.eventId !== loopEvent)
    expect.soft(others.reduce((n, r) => n + r.marks.length, 0), 'the trigger’s requests on rows of their own').toBe(triggered.attempts.length)
    expect.soft(others.every((r) => r.status === 'received')).toBe(true)
    expect.soft(shown.reduce((n, r) => n + r.marks.length, 0), 'marks on screen = requests in the store').toBe(requests)
    expect.soft(await page.locator('[data-testid=clock-group]').evaluateAll((els) => els.map((e) => e.getAttribute('data-clock'))), 'one axis per clock').toEqual(['wall', simulation])

    // Attempt #1 of the loop inspects its own request, not the trigger's #1.
    await page.locator(`${rowSelector(`[data-event-id="${loopEvent}"]`)} .tl-meta`).click()
    const inspector = page.locator('[data-testid=inspector]')
    await inspector.locator('[data-testid=attempt-chip]').first().click()
    await inspector.locator('[data-testid=verdict]').waitFor()
    await shot(page, 'trigger-while-open-2-inspector')
    const text = await inspector.innerText()
    expect.soft(text).not.toContain('payment_intent')
    expect.soft(text.toLowerCase()).not.toContain('stripe-signature')
    expect.soft(await inspector.locator('[data-testid=verdict]').getAttribute('data-state')).toBe('valid')
  })
})
