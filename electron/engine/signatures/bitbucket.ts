import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Bitbucket Cloud: `sha256=` + hex HMAC-SHA256 of the body with the webhook's secret, in
// X-Hub-Signature (GitHub's grammar under the header name GitHub keeps for its legacy SHA-1).
export const bitbucket = hmacScheme(SCHEMES.bitbucket, { signatureHeader: 'x-hub-signature', prefix: 'sha256=', encoding: 'hex', template: '{body}' })
