import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Slack: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}`; requests more than 5 minutes
// away from now (either way) are rejected.
export const slack = hmacScheme(SCHEMES.slack, { signatureHeader: 'x-slack-signature', prefix: 'v0=', encoding: 'hex', template: 'v0:{timestamp}:{body}', timestampHeader: 'x-slack-request-timestamp' })
