import { describe, expect, it } from 'vitest'
import { catalogPayload, providerBody, providerHeaders } from '../../../electron/engine/providers'
import { consumerEventId } from '../../../electron/engine/providers/consumer-id'
import { applyOverrides, EVENT_CATALOG, parseOverride } from '../../../shared/event-catalog'
import { PROVIDER_IDS, PROVIDERS } from '../../../shared/providers'
import { isPolicyPresetId } from '../../../shared/sender'

// Provider packs and the catalog as data: every pack complete, overrides by body path, the
// per-attempt parts of envelope and headers.

// Providers that send fewer than five event types: the catalog has all of them.
const FEW_TYPES: Partial<Record<(typeof PROVIDER_IDS)[number], number>> = {
  typeform: 2, // form_response and form_response_partial
}

describe('provider packs', () => {
  it('every provider has a pack with a known policy, a source note and at least five catalog events (or all it has)', () => {
    for (const id of PROVIDER_IDS) {
      const pack = PROVIDERS[id]
      expect(pack.id).toBe(id)
      expect(isPolicyPresetId(pack.policy)).toBe(true)
      expect(pack.sources.length).toBeGreaterThan(0)
      for (const s of pack.sources) expect(s.note.length).toBeGreaterThan(20)
      expect(EVENT_CATALOG[id].length).toBeGreaterThanOrEqual(FEW_TYPES[id] ?? 5)
      expect(new Set(EVENT_CATALOG[id].map((e) => e.type)).size).toBe(EVENT_CATALOG[id].length)
    }
  })

  it('fresh ids per send: two payloads of the same event type differ', () => {
    const a = JSON.stringify(catalogPayload({ provider: 'stripe', eventType: 'payment_intent.succeeded', now: 0 }))
    const b = JSON.stringify(catalogPayload({ provider: 'stripe', eventType: 'payment_intent.succeeded', now: 0 }))
    expect(a).not.toBe(b)
  })

  it('overrides name paths of the body; values are JSON when they parse', () => {
    const payload = catalogPayload({ provider: 'stripe', eventType: 'payment_intent.succeeded', now: 0, overrides: [parseOverride('data.object.amount=500'), parseOverride('data.object.metadata.note=hello world'), parseOverride('data.object.livemode=true')] }) as { object: { amount: number; metadata: { note: string }; livemode: boolean } }
    expect(payload.object).toMatchObject({ amount: 500, metadata: { note: 'hello world' }, livemode: true })
    expect(() => catalogPayload({ provider: 'stripe', eventType: 'payment_intent.succeeded', now: 0, overrides: [parseOverride('livemode=true')] })).toThrow(/sits at "data".*use a path starting with data/)
    expect(() => parseOverride('amount')).toThrow(/not PATH=VALUE/)
    expect(applyOverrides({ items: [{ price: 1 }] }, [parseOverride('items.0.price=2'), parseOverride('extra.deep.x="7"')], '')).toEqual({ items: [{ price: 2 }], extra: { deep: { x: '7' } } })
    expect(PROVIDERS.github.envelope.payloadPath).toBe('')
  })

  it('an unknown event type names the known ones; a fixture of one\u2019s own takes any type', () => {
    expect(() => catalogPayload({ provider: 'github', eventType: 'star.created', now: 0 })).toThrow(/no event type "star.created".*push, pull_request.opened/)
    expect(catalogPayload({ provider: 'github', eventType: 'star.created', now: 0, fixture: { action: 'created', starred_at: null } })).toEqual({ action: 'created', starred_at: null })
  })

  it('envelopes keep provider ids stable across attempts and take send times per attempt', () => {
    const input = { eventId: '0b6f5a8e-3a43-4c1e-9b7a-2f0e1d2c3b4a', eventType: 'Issue.create', payload: Buffer.from('{"id":"i1"}'), createdAt: 1_000_000, sentAt: 2_000_000 }
    const first = JSON.parse(providerBody(PROVIDERS.linear, input).toString()) as Record<string, unknown>
    const retry = JSON.parse(providerBody(PROVIDERS.linear, { ...input, sentAt: 3_000_000 }).toString()) as Record<string, unknown>
    expect(first).toMatchObject({ type: 'Issue', action: 'create', data: { id: 'i1' }, webhookTimestamp: 2_000_000 })
    expect(retry.webhookTimestamp).toBe(3_000_000)
    const stripeA = JSON.parse(providerBody(PROVIDERS.stripe, { ...input, eventType: 'charge.succeeded' }).toString()) as { id: string; created: number }
    const stripeB = JSON.parse(providerBody(PROVIDERS.stripe, { ...input, eventType: 'charge.succeeded', sentAt: 9_000_000 }).toString()) as { id: string; created: number }
    expect(stripeA.id).toMatch(/^evt_[0-9A-Za-z]{24}$/)
    expect(stripeB).toMatchObject({ id: stripeA.id, created: 1_000 })
    expect(providerBody(PROVIDERS.twilio, { ...input, payload: Buffer.from('{"Body":"hi there","To":"+1"}') }).toString()).toBe('Body=hi+there&To=%2B1')
  })

  it('headers: templates filled per attempt, retry-only headers only on retries', () => {
    const ctx = { eventId: 'e1', eventType: 'pull_request.opened', attempt: 1, createdAt: 0, sentAt: 0 }
    expect(providerHeaders(PROVIDERS.github, ctx)).toMatchObject({ 'x-github-event': 'pull_request', 'content-type': 'application/json' })
    expect(providerHeaders(PROVIDERS.slack, { ...ctx, eventType: 'app_mention' })['x-slack-retry-num']).toBeUndefined()
    expect(providerHeaders(PROVIDERS.slack, { ...ctx, eventType: 'app_mention', attempt: 3 })).toMatchObject({ 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_error' })
    expect(providerHeaders(PROVIDERS.shopify, { ...ctx, eventType: 'orders/create' })['x-shopify-event-id']).toBe(providerHeaders(PROVIDERS.shopify, { ...ctx, eventType: 'orders/create', attempt: 2 })['x-shopify-event-id'])
  })

  it('the consumer\u2019s id of the array and notification bodies: SendGrid\u2019s sg_event_id, HubSpot\u2019s eventId, Intercom\u2019s notif_ id, Twitch\u2019s message id header', () => {
    const body = (provider: 'sendgrid' | 'hubspot' | 'intercom', eventType: string) =>
      providerBody(PROVIDERS[provider], { eventId: 'e1', eventType, payload: Buffer.from(JSON.stringify(catalogPayload({ provider, eventType, now: 0 }))), createdAt: 0, sentAt: 0 }).toString()
    const sendgrid = body('sendgrid', 'open')
    expect(consumerEventId(PROVIDERS.sendgrid, { eventId: 'e1', eventType: 'open', createdAt: 0, body: sendgrid })).toEqual({ value: (JSON.parse(sendgrid) as Array<{ sg_event_id: string }>)[0]!.sg_event_id, where: 'body.0.sg_event_id' })
    expect(consumerEventId(PROVIDERS.hubspot, { eventId: 'e1', eventType: 'deal.creation', createdAt: 0, body: body('hubspot', 'deal.creation') })?.where).toBe('body.0.eventId')
    expect(consumerEventId(PROVIDERS.intercom, { eventId: 'e1', eventType: 'contact.user.created', createdAt: 0, body: body('intercom', 'contact.user.created') })?.value).toMatch(/^notif_/)
    const mailgun = providerBody(PROVIDERS.mailgun, { eventId: 'e1', eventType: 'opened', payload: Buffer.from(JSON.stringify(catalogPayload({ provider: 'mailgun', eventType: 'opened', now: 0 }))), createdAt: 0, sentAt: 0 }).toString()
    expect(consumerEventId(PROVIDERS.mailgun, { eventId: 'e1', eventType: 'opened', createdAt: 0, body: mailgun })).toEqual({ value: (JSON.parse(mailgun) as { 'event-data': { id: string } })['event-data'].id, where: 'body.event-data.id' })
    expect(consumerEventId(PROVIDERS.twitch, { eventId: 'e1', eventType: 'stream.online', createdAt: 0, body: '{}' })).toEqual({ value: 'e1', where: 'twitch-eventsub-message-id' })
  })
})
