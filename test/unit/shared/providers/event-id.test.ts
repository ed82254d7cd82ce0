import { describe, expect, it } from 'vitest'
import { bodyEventId, eventIdHeadersOf, findEventId, PROVIDERS } from '../../../../shared/providers'

const headers = eventIdHeadersOf(Object.values(PROVIDERS))
const find = (h: Record<string, string>, body: unknown) => findEventId(headers, (name) => h[name], () => body)

describe('finding an event id nothing was configured for', () => {
  it("reads every pack's id header, never Hookloop's own among them", () => {
    expect(headers).toEqual(expect.arrayContaining(['webhook-id', 'svix-id', 'x-github-delivery', 'x-shopify-webhook-id', 'x-pandoktorek-event-id']))
    expect(headers).not.toContain('x-hookloop-event-id')
  })

  it("takes a provider's id header before the body, the body before Hookloop's header", () => {
    expect(find({ 'webhook-id': 'msg_1', 'x-hookloop-event-id': 'h-1' }, { id: 'user_1' })).toEqual({ value: 'msg_1', where: 'webhook-id' })
    expect(find({ 'x-hookloop-event-id': 'h-1' }, { id: 'evt_1' })).toEqual({ value: 'evt_1', where: 'body.id' })
    expect(find({ 'x-hookloop-event-id': 'h-1' }, 'not json')).toEqual({ value: 'h-1', where: 'x-hookloop-event-id' })
    expect(find({}, { hello: 'world' })).toBeNull()
  })

  it("reads the seed envelope's event_id before id, and the one event of an array or Mailgun body", () => {
    expect(bodyEventId({ event_id: 'e-1', id: 'other' })).toEqual({ value: 'e-1', where: 'body.event_id' })
    expect(bodyEventId([{ sg_event_id: 'sg-1' }])).toEqual({ value: 'sg-1', where: 'body.0.sg_event_id' })
    expect(bodyEventId({ signature: {}, 'event-data': { id: 'mg-1' } })).toEqual({ value: 'mg-1', where: 'body.event-data.id' })
    expect(bodyEventId({ eventId: 42 })).toEqual({ value: '42', where: 'body.eventId' })
    expect(bodyEventId({ id: '' })).toBeNull()
  })
})
