import { PROVIDERS, type ProviderPack } from '../../../shared/providers'
import type { SendFault } from '../../../shared/sender'
import { providerBody, providerHeaders } from '../providers'
import { twilioBodyHashUrl } from '../signatures'
import { sentBody } from './envelope'
import type { StoredEvent, Subscription } from '../store'
import { addSignedHeaders, baseHeaders, defaultEventIdHeader, type BuiltHeaders, type SignFn } from './request-headers'

// What one attempt sends: body, URL and headers. A subscription with a provider pack sends what
// that provider sends (its envelope, content type and headers, built per attempt); one without
// sends Hookloop's envelope as JSON. The signature is made over exactly those bytes, at the
// attempt's signing time (see SigningTime in sender.ts).
//
// Every attempt pays for this, so what does not change between attempts is worked out once: per
// subscription (a Subscription is replaced, never changed, when it is edited) its plan below, and
// per event the body of the 'event' envelope.

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

/** What every attempt of one subscription shares. */
interface RequestPlan {
  pack: ProviderPack | null
  /** Lower-cased. */
  eventIdHeader: string
  /** Without a pack: content type, user agent and the subscription's headers (copied per attempt). */
  headers: Record<string, string> | null
  /** Without a pack: the content type the subscription's headers set, if any. */
  contentType: string | undefined
  /** Twilio: whether each target URL already carries bodySHA256 (one URL parse per target). */
  hashedUrls: Map<string, boolean> | null
}

const plans = new WeakMap<Subscription, RequestPlan>()

function planOf(sub: Subscription): RequestPlan {
  let plan = plans.get(sub)
  if (!plan) {
    const pack = sub.provider ? PROVIDERS[sub.provider] : null
    plan = {
      pack,
      eventIdHeader: (sub.eventIdHeader ?? pack?.eventIdHeader ?? defaultEventIdHeader(sub.scheme, sub.policy.name)).toLowerCase(),
      headers: pack ? null : baseHeaders(sub.headers),
      contentType: pack ? undefined : contentTypeOf(sub.headers),
      hashedUrls: sub.scheme === 'twilio' ? new Map() : null,
    }
    plans.set(sub, plan)
  }
  return plan
}

// Field by field on purpose: in this V8 an object spread that is then given names of its own
// (the id and signature headers) costs microseconds on every call, as the copy's shape shares no
// transitions; plain stores into a new object do not.
function copyHeaders(from: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const name in from) headers[name] = from[name] as string
  return headers
}

function contentTypeOf(headers: Record<string, string>): string | undefined {
  for (const name in headers) if (name.toLowerCase() === 'content-type') return headers[name]
  return undefined
}

// The 'event' envelope's bytes of an event: the same for every attempt of every subscription that
// sends it. Keyed by the event object, which the sender keeps in its event cache.
const eventBodies = new WeakMap<StoredEvent, Buffer>()

function bodyOf(event: StoredEvent, sub: Subscription): Buffer {
  if (sub.envelope !== 'event') return sentBody(event, sub.envelope)
  let body = eventBodies.get(event)
  if (!body) {
    body = sentBody(event, 'event')
    eventBodies.set(event, body)
  }
  return body
}

// Twilio signs a JSON body through the URL: `bodySHA256=<hex>` in the query, the URL signed alone
// (a form-encoded body is signed as its sorted parameters instead).
function signedUrl(plan: RequestPlan, url: string, body: Buffer, contentType: string | undefined): string {
  if (!plan.hashedUrls || url === '' || contentType?.startsWith('application/x-www-form-urlencoded')) return url
  let hashed = plan.hashedUrls.get(url)
  if (hashed === undefined) {
    hashed = new URL(url).searchParams.has('bodySHA256')
    if (plan.hashedUrls.size >= 100) plan.hashedUrls.clear() // loop-mode URLs change with the tunnel
    plan.hashedUrls.set(url, hashed)
  }
  return hashed ? url : twilioBodyHashUrl(url, body)
}

/** A stale or future timestamp fault moves a provider's send time in the body too (Linear's webhookTimestamp), as it moves the signed timestamp. */
function sendTimeShiftMs(faults: readonly SendFault[]): number {
  let ms = 0
  for (const f of faults) {
    if (f.type === 'stale-timestamp') ms -= f.by_s * 1000
    else if (f.type === 'future-timestamp') ms += f.by_s * 1000
  }
  return ms
}

export function buildAttemptRequest(input: AttemptRequestInput): AttemptRequest {
  const { sub, event } = input
  const plan = planOf(sub)
  const { pack } = plan
  let body: Buffer
  let headers: Record<string, string>
  let contentType: string | undefined
  if (pack) {
    body = providerBody(pack, { eventId: event.id, eventType: event.eventType, payload: event.payload, createdAt: event.createdAt, sentAt: input.signedAt + sendTimeShiftMs(input.faults), apiVersion: sub.apiVersion })
    // The pack's headers, then the subscription's over them.
    const extraHeaders = providerHeaders(pack, { eventId: event.id, eventType: event.eventType, attempt: input.attempt, createdAt: event.createdAt, sentAt: input.signedAt, apiVersion: sub.apiVersion })
    for (const name in sub.headers) extraHeaders[name] = sub.headers[name] as string
    headers = baseHeaders(extraHeaders)
    contentType = contentTypeOf(extraHeaders)
  } else {
    body = bodyOf(event, sub)
    headers = copyHeaders(plan.headers as Record<string, string>)
    contentType = plan.contentType
  }
  const url = signedUrl(plan, input.url, body, contentType)
  const built = addSignedHeaders(headers, {
    scheme: sub.scheme,
    secret: sub.secret,
    retiredSecret: sub.retiredSecrets[0],
    eventId: event.id,
    eventIdHeader: plan.eventIdHeader,
    body,
    url,
    now: input.signedAt,
    faults: input.faults,
    sign: input.sign,
  })
  return { headers: built.headers, applied: built.applied, body: built.body ?? body, url }
}
