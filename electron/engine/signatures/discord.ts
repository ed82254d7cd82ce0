import { SCHEMES } from '../../../shared/signatures'
import { asymmetricScheme } from './asymmetric-scheme'

// Discord interactions: hex Ed25519 over the timestamp header's text followed by the body.
export const discord = asymmetricScheme(SCHEMES.discord, {
  format: 'ed25519',
  signatureHeader: 'x-signature-ed25519',
  timestampHeader: 'x-signature-timestamp',
  encoding: 'hex',
  digest: null,
})
