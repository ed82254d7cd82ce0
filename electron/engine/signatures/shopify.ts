import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Shopify: base64 HMAC-SHA256 of the raw body with the app's client secret.
export const shopify = hmacScheme(SCHEMES.shopify, { signatureHeader: 'x-shopify-hmac-sha256', encoding: 'base64', template: '{body}', idHeader: 'x-shopify-webhook-id' })
