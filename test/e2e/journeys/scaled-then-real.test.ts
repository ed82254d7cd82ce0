// An integration engineer watches a retry in fast motion — the scaled clock (×60), one delivery
// failed once and retried after provider A's 2 minutes — then a real provider's signed POST
// arrives at the same endpoint. The simulation's time stays inside it: the real request is
// recorded at the wall time it arrived, judged on the wall clock, shown at that time on its own
// row, and the delivery's row keeps its own two attempts.
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { createEndpoint, createSubscription, rowSelector, sendEvent } from '../support/app'
import { clockText, journey, screenRows, settle, shot, withStore } from '../support/journey'

const day = journey('scaled-then-real', { timeoutMs: 30_000 })
const SECRET = `whsec_${Buffer.from('scaled-then-real-secret-32-bytes').toString('base64')}`

describe('journey: a scaled-clock session, then real traffic', () => {
  it('real rows after a scaled session are on the wall clock', async () => {
    const served = await day.serve()
    const page = day.page
    await page.click('[data-testid=clock-mode] button:has-text("scaled")')
    await page.waitForSelector('[data-testid=clock-mode] button.active:has-text("scaled")')

    await createEndpoint(page, { name: 'orders', scheme: 'standard-webhooks', secret: SECRET, dedupeHeader: 'webhook-id' })
    const card = page.locator('[data-testid=endpoint-card][data-endpoint=orders]')
    await card.locator('[data-testid=rule-presets] label:has-text("N =") input').first().fill('1')
    await card.locator('[data-testid=preset-fail-first]').click()
    await card.locator('[data-testid=rule-sentence]').waitFor()
    await createSubscription(page, { name: 'orders feed', policy: 'pandoktorek' })
    await sendEvent(page, 'order.paid')
    await page.click('[data-testid=nav-timeline]')
    // 2 minutes of policy wait at ×60: a couple of wall seconds.
    const delivery = page.locator(rowSelector('[data-status=succeeded][data-attempts="2"]'))
    await delivery.waitFor()
    const deliveryEvent = (await delivery.getAttribute('data-event-id'))!
    await shot(page, 'scaled-then-real-1-simulated')

    // A real provider's request, signed now, to the same endpoint.
    const body = JSON.stringify({ type: 'order.refunded', data: { id: 'o_77' } })
    const before = Date.now()
    const now = new Date()
    const answer = await fetch(`${served.receiverUrl}/h/orders`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_real_77', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': new Webhook(SECRET).sign('msg_real_77', now, body) },
    })
    await answer.arrayBuffer()
    const after = Date.now()

    const [real] = withStore(day.data, (s) => s.all<{ receivedAt: number; valid: number | null; reason: string | null }>("SELECT received_at AS receivedAt, verify_valid AS valid, verify_reason AS reason FROM requests WHERE dedupe_key = 'msg_real_77'"))
    expect(real).toBeDefined()
    expect.soft(real!.receivedAt, `recorded at ${new Date(real!.receivedAt).toISOString()}, arrived between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}`).toBeGreaterThanOrEqual(before)
    expect.soft(real!.receivedAt).toBeLessThanOrEqual(after)
    expect.soft([real!.valid, real!.reason]).toEqual([1, 'ok'])

    // A new event id: the endpoint's rule fails its first arrival, as it did the delivery's.
    expect(answer.status).toBe(503)

    // Its own row, at the time the store holds (the wall time it arrived); the simulated delivery keeps its two attempts.
    const realRow = page.locator(rowSelector('[data-event-id=msg_real_77]'))
    await realRow.waitFor()
    await settle(async () => (await screenRows(page)).length >= 2)
    await shot(page, 'scaled-then-real-2-real')
    expect.soft(await realRow.getAttribute('data-status')).toBe('received')
    expect.soft(await realRow.locator('[data-signature]').getAttribute('data-signature')).toBe('valid')
    expect.soft(await realRow.locator('.mark').first().getAttribute('title')).toContain(`at ${clockText(real!.receivedAt)}`)
    const attempts = withStore(day.data, (s) => s.all<{ outcome: string }>('SELECT a.outcome FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = ? ORDER BY a.n', deliveryEvent))
    const shown = await screenRows(page)
    expect.soft(shown.find((r) => r.eventId === deliveryEvent)?.marks).toHaveLength(attempts.length)
    // An HTTP request is real whatever the clock: each attempt's outcome is what the endpoint
    // answered it (its 503, then 200), not a timeout counted in scaled seconds.
    const answered = withStore(day.data, (s) => s.all<{ status: number | null }>('SELECT response_status AS status FROM requests WHERE dedupe_key = ? ORDER BY id', deliveryEvent))
    expect.soft(attempts.map((a) => a.outcome), 'attempt outcomes vs the endpoint’s answers').toEqual(answered.map((r) => `http_${r.status}`))
    expect.soft(attempts.map((a) => a.outcome)).toEqual(['http_503', 'http_200'])
  })
})
