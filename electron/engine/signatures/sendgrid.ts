import { SCHEMES } from '../../../shared/signatures'
import { asymmetricScheme } from './asymmetric-scheme'

// SendGrid's signed Event Webhook: base64 DER ECDSA (P-256, SHA-256) over the timestamp header's
// text followed by the body.
export const sendgrid = asymmetricScheme(SCHEMES.sendgrid, {
  format: 'ecdsa-p256',
  signatureHeader: 'x-twilio-email-event-webhook-signature',
  timestampHeader: 'x-twilio-email-event-webhook-timestamp',
  encoding: 'base64',
  digest: 'sha256',
})
