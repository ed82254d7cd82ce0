import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verify } from '../../../electron/engine/signatures'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { providerSender, rawBody, serve, type Consumer } from './support'

// The seed providers have no library: their bodies and headers are checked against the
// seeds' own words, and signed seed-A deliveries against Hookloop's receiver-side verify().

describe('seed providers: bodies and headers as the seeds describe them', () => {
  let consumer: Consumer
  const requests: Array<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> = []
  const a = providerSender('provider-a')
  const b = providerSender('provider-b')
  beforeAll(async () => {
    consumer = await serve(async (req, res) => {
      requests.push({ headers: req.headers, body: await rawBody(req) })
      res.writeHead(200).end()
    })
  })
  afterAll(async () => {
    await a.close()
    await b.close()
    await consumer.close()
  })

  it('provider A: {event_id, event_type, payload} with the event id in X-Pandoktorek-Event-Id, signed', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    for (const event of EVENT_CATALOG['provider-a']) {
      const attempt = await a.deliver(consumer.url, { secret, eventType: event.type })
      const { headers, body } = requests[requests.length - 1]!
      const parsed = JSON.parse(body.toString()) as { event_id: string; event_type: string; payload: unknown }
      expect(Object.keys(parsed)).toEqual(['event_id', 'event_type', 'payload'])
      expect(parsed).toMatchObject({ event_id: attempt.eventId, event_type: event.type })
      expect(headers['x-pandoktorek-event-id']).toBe(attempt.eventId)
      expect(verify('standard-webhooks', { body, headers, secrets: [secret] }).valid).toBe(true)
    }
  })

  it('provider B: {event, message} with message.id for the `${event}_${message.id}` dedupe key, unsigned', async () => {
    for (const event of EVENT_CATALOG['provider-b']) {
      await b.deliver(consumer.url, { eventType: event.type }) // the pack's default: no secret
      const { headers, body } = requests[requests.length - 1]!
      const parsed = JSON.parse(body.toString()) as { event: string; message: { id: string } }
      expect(Object.keys(parsed)).toEqual(['event', 'message'])
      expect(parsed.event).toBe(event.type)
      expect(typeof parsed.message.id).toBe('string')
      expect(headers['webhook-signature']).toBeUndefined()
    }
  })
})
