// Mailgun: the signature is inside the JSON body, `signature: {timestamp, token, signature}`,
// signature = hex HMAC-SHA256 of timestamp + token keyed with the webhook signing key. It covers
// no byte of the event data: Mailgun's docs add caching tokens (replays) and a recent timestamp.
import { randomBytes } from 'node:crypto'
import type { VerifyInput, VerifyResult } from '../../../shared/signatures'
import { SCHEMES } from '../../../shared/signatures'
import { decodeSignature, hmac } from './mac'
import { fail } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { signingKey } from './secrets'
import { runPlan } from './verify-plan'

const meta = SCHEMES.mailgun

function parseObject(body: Uint8Array): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(body).toString('utf8')) as unknown
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/**
 * The body with its `signature` object (first, as Mailgun writes it) made with the secret at the
 * timestamp; `transform` changes the signature after signing (the corrupt-signature fault).
 */
export function mailgunSignBody(input: Pick<ResolvedSignInput, 'body' | 'secret' | 'timestamp'>, transform: (signature: string) => string = (s) => s): Buffer {
  const parsed = parseObject(input.body)
  if (!parsed) throw new Error('Mailgun signs inside a JSON object body: this body is not one')
  const { signature: _old, ...rest } = parsed
  const timestamp = String(input.timestamp)
  const token = randomBytes(25).toString('hex')
  const signature = hmac('sha256', signingKey(input.secret, meta), [timestamp, token]).toString('hex')
  return Buffer.from(JSON.stringify({ signature: { timestamp, token, signature: transform(signature) }, ...rest }))
}

export const mailgun: SchemeModule = {
  // Nothing goes in the headers: the sender puts the signature in the body (signBody in index.ts).
  sign(_input: ResolvedSignInput): Record<string, string> {
    return {}
  },

  verify(input: VerifyInput): VerifyResult {
    if (input.body.length === 0) return fail(meta.id, 'empty_body', 'The body is empty: Mailgun\u2019s signature is inside the JSON body, so pass the raw request body to verify (a body parser probably consumed it first).')
    const body = parseObject(input.body)
    if (!body) return fail(meta.id, 'malformed_body', 'The body is not a JSON object, so it has no Mailgun signature object (form-encoded legacy webhooks carry timestamp, token and signature as fields: send them as JSON).')
    const sig = body.signature as Record<string, unknown> | undefined
    const timestamp = sig?.timestamp
    const token = sig?.token
    const signature = sig?.signature
    if (typeof timestamp !== 'string' || typeof token !== 'string' || typeof signature !== 'string') {
      return fail(meta.id, 'missing_header', 'The signature object {timestamp, token, signature} (all strings) is missing from the body, so there is no Mailgun signature to check.')
    }
    const seconds = /^\d{1,13}$/.test(timestamp) ? Number(timestamp) : undefined
    if (seconds === undefined) return fail(meta.id, 'malformed_header', `signature.timestamp "${timestamp}" is not a Unix time in seconds.`, { received: signature })
    const received = decodeSignature(signature, 'hex')
    if (!received) return fail(meta.id, 'malformed_header', 'signature.signature is not hex.', { received: signature })
    return runPlan({
      meta,
      input,
      received: [received],
      receivedText: signature,
      // Only timestamp and token are signed: the body's bytes play no part.
      compute: (key) => [hmac('sha256', key, [timestamp, token])],
      display: (mac) => mac.toString('hex'),
      timestamp: { value: seconds, tolerance: { seconds: meta.toleranceSeconds, mode: meta.toleranceMode }, what: 'signature.timestamp' },
    })
  },
}
