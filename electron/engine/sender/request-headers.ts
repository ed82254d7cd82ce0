import { randomBytes } from 'node:crypto'
import { SCHEMES, type SchemeId, type SignInput } from '../../../shared/signatures'
import type { AppliedFault, SendFault } from '../../../shared/sender'
import { corruptSignature } from './corrupt-signature'
import { freshPrivateKey, isAsymmetricFormat, signBody } from '../signatures'

// The headers of one attempt: content type, the event id header, the subscription's own headers,
// the signature (from the signatures module) and the attempt link. Signing faults change exactly
// one input of sign() (secret, timestamp) or its output (one character of the signature), and say
// what they did.

export type SignFn = (scheme: SchemeId, input: SignInput) => Record<string, string>

/**
 * The header that carries the event id when a subscription names none: seed provider A's own
 * header for its policy, else the scheme's id header (webhook-id, svix-id …), else ours.
 */
export function defaultEventIdHeader(scheme: SchemeId, policyName?: string): string {
  if (policyName === 'pandoktorek') return 'x-pandoktorek-event-id'
  return SCHEMES[scheme]?.idHeader ?? 'x-hookloop-event-id'
}

/** Carries the attempt link (attempt-link.ts): the only thing that files a request under an attempt. */
export const ATTEMPT_HEADER = 'x-hookloop-attempt'

export interface HeaderInput {
  scheme: SchemeId
  /** Signing secret first; secrets rotated out after it (newest first). */
  secret: string | undefined
  retiredSecret: string | undefined
  eventId: string
  eventIdHeader: string
  extraHeaders: Record<string, string>
  body: Buffer
  url: string
  /** Clock time of the attempt, ms. */
  now: number
  faults: readonly SendFault[]
  sign: SignFn
}

export interface BuiltHeaders {
  headers: Record<string, string>
  applied: AppliedFault[]
  /** The body to send instead of the given one: the scheme signs inside it (Mailgun). */
  body?: Buffer
}

/** A secret in the same format as `like` that nobody has (a fresh key pair's private key for the asymmetric schemes). */
function strangerSecret(like: string | undefined, scheme: SchemeId): string {
  const format = SCHEMES[scheme]?.secretFormat
  if (format && isAsymmetricFormat(format)) return freshPrivateKey(format)
  if (like?.startsWith('whsec_')) return `whsec_${randomBytes(24).toString('base64')}`
  return randomBytes(24).toString('hex')
}

/**
 * The headers every attempt of a subscription starts from: content type and user agent, then the
 * subscription's (or a provider's) own, lower-cased (a later name wins, at the earlier one's place).
 */
export function baseHeaders(extraHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Hookloop-Sender/0.1' }
  for (const name in extraHeaders) headers[name.toLowerCase()] = extraHeaders[name] as string
  return headers
}

export function buildHeaders(input: HeaderInput): BuiltHeaders {
  return addSignedHeaders(baseHeaders(input.extraHeaders), { ...input, eventIdHeader: input.eventIdHeader.toLowerCase() })
}

/**
 * The event id header (its name lower-cased by the caller) and the signature, added to `headers`
 * (the attempt's own copy of its base headers, changed in place and returned); the faults are
 * applied on the way.
 */
export function addSignedHeaders(headers: Record<string, string>, input: Omit<HeaderInput, 'extraHeaders'>): BuiltHeaders {
  const applied: AppliedFault[] = []
  let secret = input.secret
  let timestamp = Math.floor(input.now / 1000)
  let corrupt = false
  for (const fault of input.faults) {
    switch (fault.type) {
      case 'wrong-secret':
        secret = strangerSecret(input.secret, input.scheme)
        applied.push({ type: fault.type, detail: 'signed with a secret the subscription never had' })
        break
      case 'rotated-secret':
        if (input.retiredSecret !== undefined) {
          secret = input.retiredSecret
          applied.push({ type: fault.type, detail: 'signed with the secret rotated out last' })
        } else {
          secret = strangerSecret(input.secret, input.scheme)
          applied.push({ type: fault.type, detail: 'no secret was rotated out yet: signed with an unrelated secret instead' })
        }
        break
      case 'stale-timestamp':
        timestamp -= fault.by_s
        applied.push({ type: fault.type, detail: `timestamp ${fault.by_s} s in the past` })
        break
      case 'future-timestamp':
        timestamp += fault.by_s
        applied.push({ type: fault.type, detail: `timestamp ${fault.by_s} s in the future` })
        break
      case 'corrupt-signature':
        corrupt = true
        applied.push({ type: fault.type, detail: 'one character of the signature changed after signing' })
        break
      case 'duplicate':
      case 'drop':
      case 'out-of-order':
        break // delivery-level faults: handled when the delivery is created or attempted
      default: {
        const never: never = fault
        throw new Error(`unknown send fault ${JSON.stringify(never)}`)
      }
    }
  }
  headers[input.eventIdHeader] = input.eventId
  if (secret !== undefined && secret !== '' && SCHEMES[input.scheme]?.signatureIn === 'body') {
    const body = signBody(input.scheme, { body: input.body, secret, timestamp }, corrupt ? corruptSignature : undefined)
    return { headers, applied, body }
  }
  if (secret !== undefined && secret !== '') {
    const signed = input.sign(input.scheme, { body: input.body, secret, id: input.eventId, timestamp, url: input.url })
    if (!corrupt) Object.assign(headers, signed)
    else {
      const timestampText = String(timestamp)
      // Signatures are the headers that are neither the id nor the timestamp (a timestamp written
      // as text, Twitch's RFC 3339, is known by the scheme's timestamp header).
      const timestampHeader = SCHEMES[input.scheme]?.timestampHeader
      for (const name in signed) {
        const value = signed[name] as string
        headers[name] = name !== timestampHeader && value !== input.eventId && value !== timestampText ? corruptSignature(value) : value
      }
    }
  }
  return { headers, applied }
}
