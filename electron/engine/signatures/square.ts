import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Square: base64 HMAC-SHA256 of the notification URL followed by the body, so it must be
// verified against the public URL Square called.
export const square = hmacScheme(SCHEMES.square, { signatureHeader: 'x-square-hmacsha256-signature', encoding: 'base64', template: '{url}{body}' })
