import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Intercom: `sha1=` + hex HMAC-SHA1 of the body keyed with the app's client secret, in
// X-Hub-Signature (GitHub's legacy header name and format). No timestamp is signed.
export const intercom = hmacScheme(SCHEMES.intercom, { signatureHeader: 'x-hub-signature', prefix: 'sha1=', algorithm: 'sha1', encoding: 'hex', template: '{body}' })
