import '@shopify/shopify-api/adapters/node'
import { ApiVersion, shopifyApi } from '@shopify/shopify-api'
import { judgeConsumer, refuse } from '../support'
import type { Judge } from './types'

// @shopify/shopify-api (v13, the last for Node 20) with its node adapter, as its webhook docs
// show: shopify.webhooks.validate({rawBody, rawRequest, rawResponse}) checks the HMAC and the
// required headers (topic, shop domain, API version, webhook id). Shopify signs no time.
const SECRET = 'hookloop-shopify-client-secret'

export const shopifyJudge: Judge = {
  provider: 'shopify', library: '@shopify/shopify-api 13', secret: SECRET,
  start() {
    const shopify = shopifyApi({ apiKey: 'hookloop-key', apiSecretKey: SECRET, scopes: ['read_orders'], hostName: 'hookloop.example', apiVersion: ApiVersion.January25, isEmbeddedApp: false, logger: { level: 0 } })
    return judgeConsumer(async (body, req, res) => {
      const check = await shopify.webhooks.validate({ rawBody: body.toString('utf8'), rawRequest: req, rawResponse: res })
      if (!check.valid) refuse(401, JSON.stringify(check))
      // The library names topics ORDERS_CREATE; the header it validated carries orders/create.
      return { accepted: String(req.headers['x-shopify-topic']), deliveryId: check.webhookId }
    }, { deliveryIds: true })
  },
}
