// The common shape of most schemes: one header carrying `<prefix><hex|base64>` of an HMAC over a
// template of body, timestamp, id and URL. GitHub, Shopify, Slack, Square, Linear, Zoom and the
// custom scheme are this with their own settings.
import type { SchemeMeta, VerifyInput, VerifyResult } from '../../../shared/signatures'
import { headerValue, headerValues } from './headers'
import type { MacAlgorithm, MacEncoding } from './mac'
import { decodeSignature, hmac } from './mac'
import { fail } from './result'
import type { VerifyPlan } from './plan'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { signingKey } from './secrets'
import { placeholders, renderTemplate } from './template'
import type { Tolerance } from './tolerance'
import { formatTimestamp, parseTimestamp, timestampShape, type TimestampFormat } from './tolerance'
import { requireUrl, runPlan } from './verify-plan'

export interface HmacSpec {
  signatureHeader: string
  /** Default: none. */
  prefix?: string
  /** Default: sha256. */
  algorithm?: MacAlgorithm
  encoding: MacEncoding
  /** Signed bytes, e.g. `v0:{timestamp}:{body}`; see template.ts. */
  template: string
  timestampHeader?: string
  /** How the timestamp header writes the time (default Unix seconds); the signed text is the header's. */
  timestampFormat?: TimestampFormat
  idHeader?: string
  /** Default: the scheme's (meta.toleranceSeconds and toleranceMode). */
  tolerance?: Tolerance
  /** For schemes that carry the time in the body (Linear): the time, or a note why it is absent. */
  bodyTimestamp?: (body: Uint8Array) => { value: number; what: string } | { note: string }
}

/** Sign-side errors are thrown: the sender must not send a request it knows is unverifiable. */
export function requireSignUrl(meta: SchemeMeta, url: string | undefined): string {
  if (!url) throw new Error(`${meta.label} signs the public URL the request goes to: pass url`)
  return url
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A scheme's own settings over the defaults, so a scheme file names only what is its own. */
export function hmacScheme(meta: SchemeMeta, own: HmacSpec): SchemeModule {
  const spec = { prefix: '', algorithm: 'sha256' as const, timestampFormat: 'unix-s' as TimestampFormat, tolerance: { seconds: meta.toleranceSeconds, mode: meta.toleranceMode }, ...own }
  const uses = placeholders(spec.template)
  const encode = (mac: Buffer): string => spec.prefix + mac.toString(spec.encoding)
  const prefixed = new RegExp(`^${escapeRegExp(spec.prefix)}`, 'i')

  return {
    sign(input: ResolvedSignInput): Record<string, string> {
      const url = uses.has('url') ? requireSignUrl(meta, input.url) : input.url
      const timestamp = formatTimestamp(input.timestamp, spec.timestampFormat)
      const mac = hmac(spec.algorithm, signingKey(input.secret, meta), renderTemplate(spec.template, { body: input.body, timestamp, id: input.id, url }))
      const headers: Record<string, string> = { [spec.signatureHeader]: encode(mac) }
      if (spec.timestampHeader) headers[spec.timestampHeader] = timestamp
      if (spec.idHeader) headers[spec.idHeader] = input.id
      return headers
    },

    verify(input: VerifyInput): VerifyResult {
      const values = headerValues(input.headers, spec.signatureHeader)
      if (values.length === 0) return fail(meta.id, 'missing_header', `The ${spec.signatureHeader} header is missing, so there is no ${meta.label} signature to check.`)
      const receivedText = values.join(', ')

      let timestampText: string | undefined
      let timestamp: number | undefined
      if (spec.timestampHeader) {
        timestampText = headerValue(input.headers, spec.timestampHeader)
        if (timestampText === undefined) return fail(meta.id, 'missing_header', `The ${spec.timestampHeader} header is missing: ${meta.label} signs the timestamp it carries.`)
        timestamp = parseTimestamp(timestampText, spec.timestampFormat)
        if (timestamp === undefined) return fail(meta.id, 'malformed_header', `The ${spec.timestampHeader} header "${timestampText}" is not ${timestampShape(spec.timestampFormat)}.`)
        timestampText = timestampText.trim()
      }
      const id = spec.idHeader ? headerValue(input.headers, spec.idHeader) : undefined
      if (uses.has('id') && id === undefined) return fail(meta.id, 'missing_header', `The ${spec.idHeader ?? 'id'} header is missing: ${meta.label} signs the id it carries.`)
      if (uses.has('url')) {
        const noUrl = requireUrl({ meta, input })
        if (noUrl) return noUrl
      }

      const received: Buffer[] = []
      for (const value of values) {
        const trimmed = value.trim()
        if (!prefixed.test(trimmed)) {
          const other = /^([A-Za-z0-9]+)=/.exec(trimmed)?.[1]
          if (other && spec.prefix) return fail(meta.id, 'no_matching_version', `The ${spec.signatureHeader} header carries a "${other}=" signature, but ${meta.label} signatures start with "${spec.prefix}".`, { received: receivedText })
          return fail(meta.id, 'malformed_header', `The ${spec.signatureHeader} header is not "${spec.prefix}<${spec.encoding}>".`, { received: receivedText })
        }
        const decoded = decodeSignature(trimmed.slice(spec.prefix.length), spec.encoding)
        if (!decoded) return fail(meta.id, 'malformed_header', `The ${spec.signatureHeader} signature is not valid ${spec.encoding}.`, { received: receivedText })
        received.push(decoded)
      }

      let planTimestamp: VerifyPlan['timestamp'] = timestamp === undefined ? undefined : { value: timestamp, tolerance: spec.tolerance }
      let note: string | undefined
      if (spec.bodyTimestamp) {
        const fromBody = spec.bodyTimestamp(input.body)
        if ('note' in fromBody) note = fromBody.note
        else planTimestamp = { value: fromBody.value, tolerance: spec.tolerance, what: fromBody.what }
      }
      return runPlan({
        meta,
        input,
        received,
        receivedText,
        compute: (key, body, url) => [hmac(spec.algorithm, key, renderTemplate(spec.template, { body, timestamp: timestampText, id, url }))],
        display: encode,
        timestamp: planTimestamp,
        usesUrl: uses.has('url'),
        note,
      })
    },
  }
}
