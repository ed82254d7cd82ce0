import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Zoom: Slack's format under x-zm-* headers; Zoom documents no time limit, so none by default
// (VerifyInput.toleranceSeconds adds one).
export const zoom = hmacScheme(SCHEMES.zoom, { signatureHeader: 'x-zm-signature', prefix: 'v0=', encoding: 'hex', template: 'v0:{timestamp}:{body}', timestampHeader: 'x-zm-request-timestamp' })
