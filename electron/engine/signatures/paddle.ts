import { SCHEMES } from '../../../shared/signatures'
import { kvScheme } from './kv-scheme'

// Paddle Billing: `ts=<unix>;h1=<hex>[;h1=…]`, HMAC-SHA256 of `${ts}:${body}`; its SDK rejects
// signatures older than 5 seconds.
export const paddle = kvScheme({ meta: SCHEMES.paddle, header: 'paddle-signature', separator: ';', timestampKey: 'ts', signatureKey: 'h1', joiner: ':' })
