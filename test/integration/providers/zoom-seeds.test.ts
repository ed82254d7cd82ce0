import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verify } from '../../../electron/engine/signatures'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { closeAll, CORRUPT, providerSender, rawBody, serve, WRONG_SECRET, type Consumer } from './harness'

// Zoom publishes no Node library for webhooks: its docs give the check as code (HMAC-SHA256 of
// `v0:${x-zm-request-timestamp}:${body}` with the secret token, hex, compared with
// x-zm-signature). That check is written here from the docs, independent of Hookloop's verifier.
// The seed providers have no library either: their bodies and headers are checked against the
// seeds' own words, and signed seed-A deliveries against Hookloop's receiver-side verify().

describe('Zoom: the documented signature check accepts Hookloop deliveries', () => {
  const TOKEN = 'hookloop-zoom-secret-token'
  let consumer: Consumer
  const sender = providerSender('zoom')
  const seen: Array<{ event: string; account: string }> = []
  beforeAll(async () => {
    consumer = await serve(async (req, res) => {
      const body = (await rawBody(req)).toString('utf8')
      const message = `v0:${String(req.headers['x-zm-request-timestamp'])}:${body}`
      const expected = `v0=${createHmac('sha256', TOKEN).update(message).digest('hex')}`
      if (req.headers['x-zm-signature'] !== expected) return void res.writeHead(401).end()
      const parsed = JSON.parse(body) as { event: string; payload: { account_id: string } }
      seen.push({ event: parsed.event, account: parsed.payload.account_id })
      res.writeHead(200).end()
    })
  })
  afterAll(() => closeAll(sender, consumer))
  for (const event of EVENT_CATALOG.zoom) {
    it(`${event.type}: valid, {event, event_ts, payload: {account_id, object}}`, async () => {
      expect((await sender.deliver(consumer.url, { secret: TOKEN, eventType: event.type })).outcome).toBe('http_200')
      expect(seen[seen.length - 1]).toEqual({ event: event.type, account: 'hookloopAcct0001' })
    })
  }
  it('refuses a wrong token and a corrupted signature', async () => {
    for (const faults of [WRONG_SECRET, CORRUPT]) expect((await sender.deliver(consumer.url, { secret: TOKEN, eventType: 'meeting.started', faults })).outcome).toBe('http_401')
  })
})

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
