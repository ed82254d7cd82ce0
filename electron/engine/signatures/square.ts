import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Square: base64 HMAC-SHA256 of the notification URL followed by the body, so it must be
// verified against the public URL Square called.
const meta = SCHEMES.square
export const square = hmacScheme({
  meta,
  signatureHeader: 'x-square-hmacsha256-signature',
  prefix: '',
  algorithm: 'sha256',
  encoding: 'base64',
  template: '{url}{body}',
  tolerance: { seconds: meta.toleranceSeconds, mode: meta.toleranceMode },
})
