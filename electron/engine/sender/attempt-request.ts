import { PROVIDERS } from '../../../shared/providers'
import type { SendFault } from '../../../shared/sender-faults'
import { providerBody } from '../providers/envelopes'
import { providerHeaders } from '../providers/headers'
import { twilioBodyHashUrl } from '../signatures'
import { sentBody, type StoredEvent } from './envelope'
import { buildHeaders, defaultEventIdHeader, type BuiltHeaders, type SignFn } from './request-headers'
import type { Subscription } from './subscriptions'

// What one attempt sends: body, URL and headers. A subscription with a provider pack sends what
// that provider sends (its envelope, content type and headers, built per attempt); one without
// sends Hookloop's envelope as JSON. The signature is made over exactly those bytes, at the
// attempt's signing time (see SigningTime in sender.ts).

export interface AttemptRequestInput {
  sub: Subscription
  event: StoredEvent
  /** 1 for the first attempt. */
  attempt: number
  /** Where the request goes; '' when it cannot be resolved (nothing is sent then). */
  url: string
  /** Ms the signature's timestamp (and a provider's send time) is taken from. */
  signedAt: number
  faults: readonly SendFault[]
  sign: SignFn
}

export interface AttemptRequest extends BuiltHeaders {
  body: Buffer
  url: string
}

// Twilio signs a JSON body through the URL: `bodySHA256=<hex>` in the query, the URL signed alone
// (a form-encoded body is signed as its sorted parameters instead).
function signedUrl(input: AttemptRequestInput, body: Buffer, contentType: string | undefined): string {
  if (input.sub.scheme !== 'twilio' || input.url === '' || contentType?.startsWith('application/x-www-form-urlencoded')) return input.url
  if (new URL(input.url).searchParams.has('bodySHA256')) return input.url
  return twilioBodyHashUrl(input.url, body)
}

export function buildAttemptRequest(input: AttemptRequestInput): AttemptRequest {
  const { sub, event } = input
  const pack = sub.provider ? PROVIDERS[sub.provider] : null
  // A stale or future timestamp fault moves a provider's send time in the body too (Linear's
  // webhookTimestamp), as it moves the signed timestamp.
  const shiftMs = input.faults.reduce((ms, f) => (f.type === 'stale-timestamp' ? ms - f.by_s * 1000 : f.type === 'future-timestamp' ? ms + f.by_s * 1000 : ms), 0)
  const body = pack
    ? providerBody(pack, { eventId: event.id, eventType: event.eventType, payload: event.payload, createdAt: event.createdAt, sentAt: input.signedAt + shiftMs })
    : sentBody(event, sub.envelope)
  const extraHeaders = {
    ...(pack ? providerHeaders(pack, { eventId: event.id, eventType: event.eventType, attempt: input.attempt, createdAt: event.createdAt, sentAt: input.signedAt }) : {}),
    ...sub.headers,
  }
  const contentType = Object.entries(extraHeaders).find(([name]) => name.toLowerCase() === 'content-type')?.[1]
  const url = signedUrl(input, body, contentType)
  const built = buildHeaders({
    scheme: sub.scheme,
    secret: sub.secret,
    retiredSecret: sub.retiredSecrets[0],
    eventId: event.id,
    eventIdHeader: sub.eventIdHeader ?? pack?.eventIdHeader ?? defaultEventIdHeader(sub.scheme, sub.policy.name),
    extraHeaders,
    body,
    url,
    now: input.signedAt,
    faults: input.faults,
    sign: input.sign,
  })
  return { ...built, body, url }
}
