import '@shopify/shopify-api/adapters/node'
import { ApiVersion, shopifyApi } from '@shopify/shopify-api'
import { rawBody, serve } from '../support'
import type { Judge } from './types'

// @shopify/shopify-api (v13, the last for Node 20) with its node adapter, as its webhook docs
// show: shopify.webhooks.validate({rawBody, rawRequest, rawResponse}) checks the HMAC and the
// required headers (topic, shop domain, API version, webhook id). Shopify signs no time.
const SECRET = 'hookloop-shopify-client-secret'

export const shopifyJudge: Judge = {
  provider: 'shopify',
  library: '@shopify/shopify-api 13',
  secret: SECRET,
  async start() {
    const accepted: string[] = []
    const deliveryIds: string[] = []
    const shopify = shopifyApi({ apiKey: 'hookloop-key', apiSecretKey: SECRET, scopes: ['read_orders'], hostName: 'hookloop.example', apiVersion: ApiVersion.January25, isEmbeddedApp: false, logger: { level: 0 } })
    const consumer = await serve(async (req, res) => {
      const check = await shopify.webhooks.validate({ rawBody: (await rawBody(req)).toString('utf8'), rawRequest: req, rawResponse: res })
      if (!check.valid) return void res.writeHead(401).end(JSON.stringify(check))
      // The library names topics ORDERS_CREATE; the header it validated carries orders/create.
      accepted.push(String(req.headers['x-shopify-topic']))
      deliveryIds.push(check.webhookId)
      res.writeHead(200).end()
    })
    return { ...consumer, accepted, deliveryIds }
  },
}
