// Schemes that sign with a private key over `${timestamp}${body}` (SendGrid's ECDSA, Discord's
// Ed25519): the signature in one header, the timestamp in another. There is no shared secret to
// recompute a signature with, so a mismatch is diagnosed by verifying the classic body mistakes
// (re-serialised JSON, a newline) against the same public key.
import { sign as cryptoSign, verify as cryptoVerify, type KeyObject } from 'node:crypto'
import type { SchemeMeta, VerifyInput, VerifyResult } from '../../../shared/signatures'
import { privateKeyOf, publicKeyOf, type AsymmetricFormat } from './asymmetric-keys'
import { bodyVariants } from './body-variants'
import { headerValue } from './headers'
import { decodeSignature, type MacEncoding } from './mac'
import { fail, ok, secretsPhrase } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { SecretFormatError } from './secrets'
import { checkTolerance, nowSeconds, parseUnixSeconds } from './tolerance'

export interface AsymmetricSpec {
  format: AsymmetricFormat
  signatureHeader: string
  timestampHeader: string
  encoding: MacEncoding
  /** The digest Node's sign/verify take: 'sha256' for ECDSA, null for Ed25519 (it hashes itself). */
  digest: 'sha256' | null
}

function message(timestamp: string, body: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(timestamp), body])
}

export function asymmetricScheme(meta: SchemeMeta, spec: AsymmetricSpec): SchemeModule {
  const check = (key: KeyObject, bytes: Buffer, signature: Buffer): boolean => {
    try {
      return cryptoVerify(spec.digest, bytes, key, signature)
    } catch {
      return false // a signature that is not DER (ECDSA) cannot verify
    }
  }
  return {
    sign(input: ResolvedSignInput): Record<string, string> {
      const key = privateKeyOf(input.secret, spec.format)
      if ('error' in key) throw new SecretFormatError(`${meta.label} key is not usable: ${key.error}`)
      const timestamp = String(input.timestamp)
      return { [spec.signatureHeader]: cryptoSign(spec.digest, message(timestamp, input.body), key).toString(spec.encoding), [spec.timestampHeader]: timestamp }
    },

    verify(input: VerifyInput): VerifyResult {
      const receivedText = headerValue(input.headers, spec.signatureHeader)
      const timestampText = headerValue(input.headers, spec.timestampHeader)
      const missing = [receivedText === undefined ? spec.signatureHeader : null, timestampText === undefined ? spec.timestampHeader : null].filter((x) => x !== null)
      if (receivedText === undefined || timestampText === undefined) return fail(meta.id, 'missing_header', `The ${missing.join(' and ')} header${missing.length > 1 ? 's are' : ' is'} missing: ${meta.label} needs ${spec.signatureHeader} and ${spec.timestampHeader}.`)
      const timestamp = parseUnixSeconds(timestampText)
      if (timestamp === undefined) return fail(meta.id, 'malformed_header', `The ${spec.timestampHeader} header "${timestampText}" is not a Unix time in seconds.`)
      const signature = decodeSignature(receivedText.trim(), spec.encoding)
      if (!signature) return fail(meta.id, 'malformed_header', `The ${spec.signatureHeader} header is not ${spec.encoding}.`, { received: receivedText })
      if (input.secrets.length === 0) return fail(meta.id, 'no_secret', `No public key was given, so the ${meta.label} signature cannot be checked.`)

      const keys: Array<{ key: KeyObject; index: number }> = []
      const bad: string[] = []
      input.secrets.forEach((secret, index) => {
        const key = publicKeyOf(secret, spec.format)
        if ('error' in key) bad.push(`key ${index + 1} is not a valid ${meta.label} key: ${key.error}`)
        else keys.push({ key, index })
      })
      const signed = timestampText.trim()
      let matched: number | undefined
      for (const { key, index } of keys) if (check(key, message(signed, input.body), signature) && matched === undefined) matched = index

      if (matched === undefined) {
        if (keys.length === 0) {
          const sentence = bad.join('; ')
          return fail(meta.id, 'bad_secret_format', sentence.charAt(0).toUpperCase() + sentence.slice(1) + '.', { received: receivedText })
        }
        if (input.body.length === 0) return fail(meta.id, 'empty_body', 'The body is empty, so no signature can match: pass the raw request body to verify (a body parser probably consumed it first).', { received: receivedText })
        for (const variant of bodyVariants(input.body)) {
          if (keys.some(({ key }) => check(key, message(signed, variant.body), signature))) return fail(meta.id, 'signature_mismatch', `The signature matches ${variant.explanation}.`, { received: receivedText })
        }
        const which = keys.length === 1 ? 'the public key' : secretsPhrase(keys.length).replace('secrets', 'public keys')
        return fail(meta.id, 'signature_mismatch', `No signature verifies with ${which}: the secret is probably wrong (the private key that signed is not this public key's pair), or the body or timestamp changed after signing.`, { received: receivedText })
      }
      const now = nowSeconds(input.now)
      const late = checkTolerance(meta, timestamp, now, { seconds: input.toleranceSeconds ?? meta.toleranceSeconds, mode: meta.toleranceMode })
      if (late) return late
      const which = input.secrets.length > 1 ? ` with secret ${matched + 1} of ${input.secrets.length}` : ''
      return ok(meta.id, `The ${meta.label} signature is valid${which}.`, { secretIndex: matched, skewSeconds: now - timestamp, received: receivedText })
    },
  }
}
