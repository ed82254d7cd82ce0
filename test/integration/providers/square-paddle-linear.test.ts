import { LinearWebhookClient } from '@linear/sdk/webhooks'
import { Environment, Paddle } from '@paddle/paddle-node-sdk'
import { WebhooksHelper } from 'square'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { closeAll, CORRUPT, providerSender, rawBody, serve, serveCheck, STALE, WRONG_SECRET, type Consumer } from './harness'

// Square's WebhooksHelper.verifySignature (notification URL + body), Paddle's
// webhooks.unmarshal (verifies Paddle-Signature within 5 s, then parses the event into its
// entity), and the Linear SDK's LinearWebhookClient node handler (Linear-Signature plus the
// body's webhookTimestamp within a minute), each as its docs show.

describe('Square: WebhooksHelper.verifySignature accepts Hookloop deliveries', () => {
  const KEY = 'hookloop-square-signature-key'
  let consumer: Consumer
  const sender = providerSender('square')
  const types: string[] = []
  beforeAll(async () => {
    consumer = await serve(async (req, res) => {
      const body = (await rawBody(req)).toString('utf8')
      const notificationUrl = `http://127.0.0.1:${req.socket.localPort}${req.url}`
      const valid = await WebhooksHelper.verifySignature({ requestBody: body, signatureHeader: String(req.headers['x-square-hmacsha256-signature']), signatureKey: KEY, notificationUrl })
      if (!valid) return void res.writeHead(403).end()
      types.push((JSON.parse(body) as { type: string }).type)
      res.writeHead(200).end()
    })
  })
  afterAll(() => closeAll(sender, consumer))
  for (const event of EVENT_CATALOG.square) {
    it(`${event.type}: valid`, async () => {
      expect((await sender.deliver(consumer.url, { secret: KEY, eventType: event.type })).outcome).toBe('http_200')
      expect(types[types.length - 1]).toBe(event.type)
    })
  }
  it('refuses a wrong key and a corrupted signature (Square signs no timestamp)', async () => {
    for (const faults of [WRONG_SECRET, CORRUPT]) expect((await sender.deliver(consumer.url, { secret: KEY, eventType: 'payment.created', faults })).outcome).toBe('http_403')
  })
})

describe('Paddle: webhooks.unmarshal accepts Hookloop deliveries', () => {
  const SECRET = 'pdl_ntfset_01hookloop_secretkey'
  let consumer: Consumer
  const sender = providerSender('paddle')
  const seen: Array<{ eventType: string; id: string }> = []
  beforeAll(async () => {
    const paddle = new Paddle('pdl_sdbx_apikey_hookloop', { environment: Environment.sandbox })
    consumer = await serveCheck(async (body, req) => {
      const event = await paddle.webhooks.unmarshal(body.toString('utf8'), SECRET, String(req.headers['paddle-signature']))
      seen.push({ eventType: event.eventType, id: (event.data as { id: string }).id })
    })
  })
  afterAll(() => closeAll(sender, consumer))
  for (const event of EVENT_CATALOG.paddle) {
    it(`${event.type}: verified and parsed into its entity`, async () => {
      expect((await sender.deliver(consumer.url, { secret: SECRET, eventType: event.type })).outcome).toBe('http_200')
      expect(seen[seen.length - 1]?.eventType).toBe(event.type)
    })
  }
  it('refuses a wrong secret, a corrupted signature and a stale timestamp', async () => {
    for (const faults of [WRONG_SECRET, CORRUPT, STALE]) expect((await sender.deliver(consumer.url, { secret: SECRET, eventType: 'transaction.completed', faults })).outcome, JSON.stringify(faults)).toBe('http_400')
  })
})

describe('Linear: LinearWebhookClient accepts Hookloop deliveries', () => {
  const SECRET = 'lin_wh_hookloop_secret'
  let consumer: Consumer
  const sender = providerSender('linear')
  const seen: string[] = []
  beforeAll(async () => {
    const handler = new LinearWebhookClient(SECRET).createHandler()
    for (const type of new Set(EVENT_CATALOG.linear.map((e) => e.type.split('.')[0]!))) {
      handler.on(type as 'Issue', (payload) => {
        seen.push(`${payload.type}.${payload.action}`)
      })
    }
    consumer = await serve(handler as unknown as Parameters<typeof serve>[0])
  })
  afterAll(() => closeAll(sender, consumer))
  for (const event of EVENT_CATALOG.linear) {
    it(`${event.type}: verified (signature and webhookTimestamp), handler ran`, async () => {
      expect((await sender.deliver(consumer.url, { secret: SECRET, eventType: event.type })).outcome).toBe('http_200')
      expect(seen[seen.length - 1]).toBe(event.type)
    })
  }
  it('refuses a wrong secret, a corrupted signature and a stale webhookTimestamp', async () => {
    for (const faults of [WRONG_SECRET, CORRUPT, STALE]) expect((await sender.deliver(consumer.url, { secret: SECRET, eventType: 'Issue.create', faults })).outcome, JSON.stringify(faults)).toBe('http_400')
  })
})
