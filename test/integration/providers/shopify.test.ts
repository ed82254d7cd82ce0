import '@shopify/shopify-api/adapters/node'
import { ApiVersion, shopifyApi } from '@shopify/shopify-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { closeAll, CORRUPT, providerSender, rawBody, serve, WRONG_SECRET, type Consumer } from './harness'

// @shopify/shopify-api (v13, the last for Node 20) with its node adapter, as its webhook docs
// show: shopify.webhooks.validate({rawBody, rawRequest, rawResponse}) checks the HMAC and the
// required headers (topic, shop domain, API version, webhook id). Shopify signs no timestamp, so
// there is no stale case (dedupe on X-Shopify-Webhook-Id / X-Shopify-Event-Id instead).

const SECRET = 'hookloop-shopify-client-secret'

describe('Shopify: shopify.webhooks.validate accepts Hookloop deliveries', () => {
  let consumer: Consumer
  const seen: Array<{ topic: string; domain: string; webhookId: string }> = []
  const sender = providerSender('shopify')
  beforeAll(async () => {
    const shopify = shopifyApi({ apiKey: 'hookloop-key', apiSecretKey: SECRET, scopes: ['read_orders'], hostName: 'hookloop.example', apiVersion: ApiVersion.January25, isEmbeddedApp: false, logger: { level: 0 } })
    consumer = await serve(async (req, res) => {
      const body = (await rawBody(req)).toString('utf8')
      const check = await shopify.webhooks.validate({ rawBody: body, rawRequest: req, rawResponse: res })
      if (!check.valid) {
        res.writeHead(401).end(JSON.stringify(check))
        return
      }
      seen.push({ topic: check.topic, domain: check.domain, webhookId: check.webhookId })
      res.writeHead(200).end()
    })
  })
  afterAll(() => closeAll(sender, consumer))

  for (const event of EVENT_CATALOG.shopify) {
    it(`${event.type}: valid, with its topic and shop`, async () => {
      const attempt = await sender.deliver(consumer.url, { secret: SECRET, eventType: event.type })
      expect(attempt.outcome).toBe('http_200')
      expect(seen[seen.length - 1]).toMatchObject({ domain: 'hookloop-test.myshopify.com', webhookId: attempt.eventId })
      // The library stores topics as ORDERS_CREATE; the header carried orders/create.
      expect(seen[seen.length - 1]?.topic).toBe(event.type.toUpperCase().replace('/', '_'))
    })
  }

  it('refuses a wrong secret and a corrupted signature', async () => {
    for (const faults of [WRONG_SECRET, CORRUPT]) {
      const attempt = await sender.deliver(consumer.url, { secret: SECRET, eventType: 'orders/create', faults })
      expect(attempt.outcome).toBe('http_401')
    }
  })
})
