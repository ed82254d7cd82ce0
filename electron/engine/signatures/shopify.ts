import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Shopify: base64 HMAC-SHA256 of the raw body with the app's client secret.
const meta = SCHEMES.shopify
export const shopify = hmacScheme({
  meta,
  signatureHeader: 'x-shopify-hmac-sha256',
  prefix: '',
  algorithm: 'sha256',
  encoding: 'base64',
  template: '{body}',
  idHeader: 'x-shopify-webhook-id',
  tolerance: { seconds: meta.toleranceSeconds, mode: meta.toleranceMode },
})
