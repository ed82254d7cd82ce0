// Standard Webhooks and Svix share one format: `${id}.${timestamp}.${body}`, HMAC-SHA256 with
// the base64-decoded `whsec_` key, space-separated `v1,<base64>` entries. Only the header names
// differ, so both modules are this core with their own names.
import type { SchemeMeta, VerifyInput, VerifyResult } from '../../../shared/signatures'
import { headerValue, headerValues } from './headers'
import { decodeSignature, hmac, isBase64 } from './mac'
import { fail, ok } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { signingKey, SecretFormatError } from './secrets'
import { parseUnixSeconds, checkTolerance, nowSeconds } from './tolerance'
import { runPlan } from './verify-plan'
import { ed25519PrivateKey, ed25519PublicKey, ed25519Sign, ed25519Verify, isAsymmetricKey } from './ed25519'

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
  // The first naming whose signature header is present wins (Svix falls back to webhook-*); with
  // one naming there is nothing to look for.
  const pick = (input: VerifyInput): WebhookHeaderNames => (names.length === 1 ? primary : names.find((n) => headerValue(input.headers, n.signature) !== undefined) ?? primary)

  return {
    sign(input: ResolvedSignInput): Record<string, string> {
      return {
        [primary.id]: input.id,
        [primary.timestamp]: String(input.timestamp),
        [primary.signature]: isAsymmetricKey(input.secret) ? signV1a(meta, input) : `v1,${hmac('sha256', signingKey(input.secret, meta), signedParts(input.id, input.timestamp, input.body)).toString('base64')}`,
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
      // Ed25519 keys (whsk_ / whpk_) check the v1a entries; whsec_ secrets the v1 ones.
      const asymmetric = input.secrets.map((secret, index) => ({ secret, index })).filter((k) => isAsymmetricKey(k.secret))
      const v1a = entries.filter(([version]) => version === 'v1a')
      if (asymmetric.length > 0) {
        const result = verifyV1a(meta, input, { id, timestampText, timestamp, receivedText }, asymmetric, v1a)
        const symmetricLeft = asymmetric.length < input.secrets.length
        if (result.valid || !symmetricLeft) return result
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
      const symmetric = asymmetric.length > 0 ? input.secrets.map((secret, index) => ({ secret, index })).filter((k) => !isAsymmetricKey(k.secret)) : null
      const result = runPlan({
        meta,
        input: symmetric ? { ...input, secrets: symmetric.map((k) => k.secret) } : input,
        received,
        receivedText,
        compute: (key, body) => [hmac('sha256', key, signedParts(id, timestampText.trim(), body))],
        display: (mac) => `v1,${mac.toString('base64')}`,
        timestamp: { value: timestamp, tolerance: { seconds: meta.toleranceSeconds, mode: meta.toleranceMode } },
      })
      // Indices name the caller's secrets, not the symmetric ones tried here.
      return symmetric && result.secretIndex !== undefined ? { ...result, secretIndex: symmetric[result.secretIndex]?.index ?? result.secretIndex } : result
    },
  }
}

function signV1a(meta: SchemeMeta, input: ResolvedSignInput): string {
  const key = ed25519PrivateKey(input.secret)
  if ('error' in key) throw new SecretFormatError(`${meta.label} Ed25519 key is not usable: ${key.error} (a whpk_ public key verifies, it cannot sign)`)
  return `v1a,${ed25519Sign(key, Buffer.concat([Buffer.from(`${input.id}.${input.timestamp}.`), input.body])).toString('base64')}`
}

interface SignedHeaders {
  id: string
  timestampText: string
  timestamp: number
  receivedText: string
}

function verifyV1a(meta: SchemeMeta, input: VerifyInput, h: SignedHeaders, keys: Array<{ secret: string; index: number }>, v1a: Array<[string, string]>): VerifyResult {
  if (v1a.length === 0) {
    return fail(meta.id, 'no_matching_version', `Ed25519 keys were given but the ${meta.signatureHeader ?? 'signature'} header has no v1a entry (only ${[...new Set(parseVersions(h.receivedText))].join(', ')}): the sender signs with a whsec_ secret, give that instead.`, { received: h.receivedText })
  }
  const message = Buffer.concat([Buffer.from(`${h.id}.${h.timestampText.trim()}.`), input.body])
  const signatures = v1a.map(([, sig]) => (isBase64(sig) ? Buffer.from(sig, 'base64') : undefined)).filter((sig) => sig !== undefined)
  if (signatures.length === 0) return fail(meta.id, 'malformed_header', `The v1a signature in ${meta.signatureHeader ?? 'the header'} is not valid base64.`, { received: h.receivedText })
  const bad: string[] = []
  let matched: number | undefined
  for (const k of keys) {
    const key = ed25519PublicKey(k.secret)
    if ('error' in key) {
      bad.push(`secret ${k.index + 1} is not a valid Ed25519 key: ${key.error}`)
      continue
    }
    if (signatures.some((sig) => ed25519Verify(key, message, sig)) && matched === undefined) matched = k.index
  }
  if (matched === undefined) {
    if (bad.length > 0 && bad.length === keys.length) return fail(meta.id, 'bad_secret_format', `${bad.join('; ')}.`, { received: h.receivedText })
    return fail(meta.id, 'signature_mismatch', `No v1a (Ed25519) signature verifies with ${keys.length === 1 ? 'the public key' : `any of the ${keys.length} keys`}: the message was signed with another key, or the id, timestamp or body changed after signing.`, { received: h.receivedText })
  }
  const now = nowSeconds(input.now)
  const late = checkTolerance(meta, h.timestamp, now, { seconds: input.toleranceSeconds ?? meta.toleranceSeconds, mode: meta.toleranceMode })
  if (late) return late
  return ok(meta.id, `The ${meta.label} v1a (Ed25519) signature is valid${input.secrets.length > 1 ? ` with key ${matched + 1} of ${input.secrets.length}` : ''}.`, { secretIndex: matched, skewSeconds: now - h.timestamp, received: h.receivedText })
}

function parseVersions(text: string): string[] {
  return parseEntries([text]).map(([version]) => version)
}
