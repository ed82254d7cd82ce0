import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Typeform: `sha256=` + base64 HMAC-SHA256 of the raw body with the webhook's secret, in
// Typeform-Signature. No time is signed.
export const typeform = hmacScheme(SCHEMES.typeform, { signatureHeader: 'typeform-signature', prefix: 'sha256=', encoding: 'base64', template: '{body}' })
