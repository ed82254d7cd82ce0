// Standard Webhooks and Svix share one format: `${id}.${timestamp}.${body}`, HMAC-SHA256 with
// the base64-decoded `whsec_` key, space-separated `v1,<base64>` entries. Only the header names
// differ, so both modules are this core with their own names.
import type { SchemeMeta, VerifyInput, VerifyResult } from '../../../shared/signatures'
import { headerValue, headerValues } from './headers'
import { decodeSignature, hmac } from './mac'
import { fail } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { signingKey } from './secrets'
import { parseUnixSeconds } from './tolerance'
import { runPlan } from './verify-plan'

export interface WebhookHeaderNames {
  id: string
  timestamp: string
  signature: string
}

function signedParts(id: string, timestamp: number | string, body: Uint8Array): Array<string | Uint8Array> {
  return [`${id}.${timestamp}.`, body]
}

/** Splits `v1,abc v1a,def` (and Node's ", "-joined repeats) into [version, signature] pairs. */
function parseEntries(values: string[]): Array<[string, string]> {
  const entries: Array<[string, string]> = []
  for (const token of values.join(' ').split(/\s+/)) {
    const entry = token.replace(/,$/, '')
    const comma = entry.indexOf(',')
    if (comma > 0) entries.push([entry.slice(0, comma), entry.slice(comma + 1)])
  }
  return entries
}

export function webhookScheme(meta: SchemeMeta, names: WebhookHeaderNames[]): SchemeModule {
  const primary = names[0]
  if (!primary) throw new Error(`${meta.id}: no header names`)
  // The first naming whose signature header is present wins (Svix falls back to webhook-*).
  const pick = (input: VerifyInput): WebhookHeaderNames => names.find((n) => headerValue(input.headers, n.signature) !== undefined) ?? primary

  return {
    sign(input: ResolvedSignInput): Record<string, string> {
      const mac = hmac('sha256', signingKey(input.secret, meta), signedParts(input.id, input.timestamp, input.body))
      return {
        [primary.id]: input.id,
        [primary.timestamp]: String(input.timestamp),
        [primary.signature]: `v1,${mac.toString('base64')}`,
      }
    },

    verify(input: VerifyInput): VerifyResult {
      const n = pick(input)
      const id = headerValue(input.headers, n.id)
      const timestampText = headerValue(input.headers, n.timestamp)
      const signatureValues = headerValues(input.headers, n.signature)
      const missing = [id === undefined ? n.id : null, timestampText === undefined ? n.timestamp : null, signatureValues.length === 0 ? n.signature : null].filter((x) => x !== null)
      if (id === undefined || timestampText === undefined || missing.length > 0) {
        return fail(meta.id, 'missing_header', `The ${missing.join(', ')} header${missing.length > 1 ? 's are' : ' is'} missing: ${meta.label} needs ${n.id}, ${n.timestamp} and ${n.signature}.`)
      }
      const timestamp = parseUnixSeconds(timestampText)
      if (timestamp === undefined) {
        return fail(meta.id, 'malformed_header', `The ${n.timestamp} header "${timestampText}" is not a Unix time in seconds.`)
      }
      const receivedText = signatureValues.join(' ')
      const entries = parseEntries(signatureValues)
      if (entries.length === 0) {
        return fail(meta.id, 'malformed_header', `The ${n.signature} header has no "v1,<base64>" entry.`, { received: receivedText })
      }
      const v1 = entries.filter(([version]) => version === 'v1')
      if (v1.length === 0) {
        const versions = [...new Set(entries.map(([version]) => version))].join(', ')
        return fail(meta.id, 'no_matching_version', `The ${n.signature} header only has ${versions} signatures and no v1 one, the version this verifier checks.`, { received: receivedText })
      }
      const received = v1.map(([, sig]) => decodeSignature(sig, 'base64')).filter((sig) => sig !== undefined)
      if (received.length === 0) {
        return fail(meta.id, 'malformed_header', `The v1 signature in ${n.signature} is not valid base64.`, { received: receivedText })
      }
      return runPlan({
        meta,
        input,
        received,
        receivedText,
        compute: (key, body) => [hmac('sha256', key, signedParts(id, timestampText.trim(), body))],
        display: (mac) => `v1,${mac.toString('base64')}`,
        timestamp: { value: timestamp, tolerance: { seconds: meta.toleranceSeconds, mode: meta.toleranceMode } },
      })
    },
  }
}
