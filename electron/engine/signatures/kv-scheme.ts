// Stripe (`t=…,v1=…`) and Paddle (`ts=…;h1=…`) put a timestamp and one or more hex signatures in
// one key=value header and sign `${timestamp}<joiner>${body}`; only names and separators differ.
import type { SchemeMeta, VerifyInput, VerifyResult } from '../../../shared/signatures'
import { headerValues } from './headers'
import { decodeSignature, hmac } from './mac'
import { fail } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { signingKey } from './secrets'
import { parseUnixSeconds } from './tolerance'
import { runPlan } from './verify-plan'

export interface KvSpec {
  meta: SchemeMeta
  header: string
  separator: string
  timestampKey: string
  signatureKey: string
  /** Between timestamp and body in the signed bytes. */
  joiner: string
}

/** `a=1,b=2,b=3` → a: [1], b: [2, 3]; pieces without "=" are kept under "" to count as junk. */
export function parseKeyValues(text: string, separator: string): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const piece of text.split(separator)) {
    const trimmed = piece.trim()
    if (!trimmed) continue
    const eq = trimmed.indexOf('=')
    const key = eq > 0 ? trimmed.slice(0, eq) : ''
    const value = eq > 0 ? trimmed.slice(eq + 1) : trimmed
    map.set(key, [...(map.get(key) ?? []), value])
  }
  return map
}

export function kvScheme(spec: KvSpec): SchemeModule {
  const { meta, timestampKey: tk, signatureKey: sk } = spec
  const signed = (timestamp: string, body: Uint8Array): Array<string | Uint8Array> => [`${timestamp}${spec.joiner}`, body]
  const shape = `${tk}=<unix>${spec.separator}${sk}=<hex>`

  return {
    sign(input: ResolvedSignInput): Record<string, string> {
      const mac = hmac('sha256', signingKey(input.secret, meta), signed(String(input.timestamp), input.body))
      return { [spec.header]: `${tk}=${input.timestamp}${spec.separator}${sk}=${mac.toString('hex')}` }
    },

    verify(input: VerifyInput): VerifyResult {
      const values = headerValues(input.headers, spec.header)
      if (values.length === 0) return fail(meta.id, 'missing_header', `The ${spec.header} header is missing, so there is no ${meta.label} signature to check.`)
      const receivedText = values.join(spec.separator)
      const fields = parseKeyValues(receivedText, spec.separator)
      const timestampText = fields.get(tk)?.[0]
      const timestamp = timestampText === undefined ? undefined : parseUnixSeconds(timestampText)
      if (timestampText === undefined || timestamp === undefined) {
        return fail(meta.id, 'malformed_header', `The ${spec.header} header has no valid "${tk}=<unix seconds>" part (expected ${shape}).`, { received: receivedText })
      }
      const signatures = fields.get(sk) ?? []
      if (signatures.length === 0) {
        const others = [...fields.keys()].filter((key) => key !== tk && key !== '')
        if (others.length > 0) return fail(meta.id, 'no_matching_version', `The ${spec.header} header only has ${others.join(', ')} signatures and no ${sk} one, the scheme this verifier checks.`, { received: receivedText })
        return fail(meta.id, 'malformed_header', `The ${spec.header} header has no "${sk}=<hex>" signature (expected ${shape}).`, { received: receivedText })
      }
      const received = signatures.map((sig) => decodeSignature(sig, 'hex')).filter((sig) => sig !== undefined)
      if (received.length === 0) return fail(meta.id, 'malformed_header', `The ${sk} signature in ${spec.header} is not hex.`, { received: receivedText })
      return runPlan({
        meta,
        input,
        received,
        receivedText,
        compute: (key, body) => [hmac('sha256', key, signed(timestampText.trim(), body))],
        display: (mac) => `${sk}=${mac.toString('hex')}`,
        timestamp: { value: timestamp, tolerance: { seconds: meta.toleranceSeconds, mode: meta.toleranceMode } },
      })
    },
  }
}
