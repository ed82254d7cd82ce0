import { SCHEMES } from '../../../shared/signatures'
import { kvScheme } from './kv-scheme'

// Stripe: `t=<unix>,v1=<hex>[,v1=…]`, HMAC-SHA256 of `${t}.${body}` keyed with the whole whsec_…
// string as UTF-8; v0 entries are ignored; only too-old timestamps are rejected.
export const stripe = kvScheme({ meta: SCHEMES.stripe, header: 'stripe-signature', separator: ',', timestampKey: 't', signatureKey: 'v1', joiner: '.' })
