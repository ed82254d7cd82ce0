// Runs the consumer check: sends the battery one request at a time (so the endpoint sees them in
// order, like a provider's deliveries) over the sender's own HTTP attempt (postOnce: timeout on
// the clock, redirects never followed, outcome words of the policy) and grades the answers.
import { Agent, type Dispatcher } from 'undici'
import type { Clock } from '../../../../shared/clock'
import { CONSUMER_CHECK_DEFAULTS, type ConsumerCheckResult, type ConsumerCheckSettings, type ProbeObservation } from '../../../../shared/conformance'
import { isSchemeId } from '../../../../shared/signatures'
import { createRealClock } from '../../clock'
import { postOnce, type PostResult } from '../../sender/http-post'
import { buildProbe, signsTimestamp, staleBySeconds, type BatteryInput, type ProbeKind, type ProbeRequest } from './battery'
import { gradeConsumer } from './grade'
import { latencyStats } from './latency'

export interface ConsumerCheckOptions extends ConsumerCheckSettings {
  /** Stops the battery before its next request (the UI's Cancel); the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** Called after each request, e.g. to show progress: (kind, index, total). */
  onProbe?: (kind: ProbeKind, index: number, total: number, observation: ProbeObservation) => void
}

export interface ConsumerCheckDeps {
  clock?: Clock
  /** HTTP client; default an undici Agent owned (and closed) by the check. */
  dispatcher?: Dispatcher
}

/** Bad options (not a URL, no secret …): the caller's mistake, nothing was sent. */
export class ConsumerCheckInputError extends Error {
  override readonly name = 'ConsumerCheckInputError'
}

/** The endpoint could not be reached at all (connection refused, DNS): nothing to grade. */
export class ConsumerUnreachableError extends Error {
  override readonly name = 'ConsumerUnreachableError'
  constructor(
    readonly url: string,
    readonly outcome: string,
    detail: string,
  ) {
    super(`cannot reach ${url}: ${outcome === 'dns' ? 'DNS lookup failed' : outcome.replace(/_/g, ' ')}${detail ? ` (${detail})` : ''}`)
  }
}

const MAX_RESPONSE_BYTES = 2048
const EXCERPT_CHARS = 120

function validate(options: ConsumerCheckOptions): void {
  let parsed: URL
  try {
    parsed = new URL(options.url)
  } catch {
    throw new ConsumerCheckInputError(`not a URL: "${options.url}"`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConsumerCheckInputError(`the URL must be http or https, got ${parsed.protocol}`)
  if (!isSchemeId(options.scheme)) throw new ConsumerCheckInputError(`unknown scheme "${String(options.scheme)}"`)
  if (options.secret === '') throw new ConsumerCheckInputError('the signing secret is empty')
  for (const [name, value] of [
    ['timeoutMs', options.timeoutMs],
    ['warnAboveMs', options.warnAboveMs],
    ['latencySamples', options.latencySamples],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new ConsumerCheckInputError(`${name} must be a positive whole number, got ${value}`)
  }
}

function excerpt(body: Buffer | null): string | null {
  if (!body || body.length === 0) return null
  const text = body.toString('utf8').replace(/\s+/g, ' ').trim()
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text
}

function observe(result: PostResult): ProbeObservation {
  return {
    outcome: result.outcome,
    status_code: result.statusCode,
    duration_ms: Math.round(result.durationMs),
    location: result.responseHeaders?.location ?? null,
    response_excerpt: result.error ?? excerpt(result.responseBody),
    error: result.error,
  }
}

export async function runConsumerCheck(options: ConsumerCheckOptions, deps: ConsumerCheckDeps = {}): Promise<ConsumerCheckResult> {
  validate(options)
  const clock = deps.clock ?? createRealClock()
  const timeoutMs = options.timeoutMs ?? CONSUMER_CHECK_DEFAULTS.timeoutMs
  const warnAboveMs = options.warnAboveMs ?? CONSUMER_CHECK_DEFAULTS.warnAboveMs
  const samples = options.latencySamples ?? CONSUMER_CHECK_DEFAULTS.latencySamples
  const battery: BatteryInput = {
    url: options.url,
    scheme: options.scheme,
    secret: options.secret,
    eventType: options.eventType ?? CONSUMER_CHECK_DEFAULTS.eventType,
    ...(options.custom ? { custom: options.custom } : {}),
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  }
  const withStale = signsTimestamp(options.scheme, options.custom)
  const kinds: ProbeKind[] = ['valid', 'duplicate', 'wrong_signature', 'missing_signature', ...(withStale ? (['stale_timestamp'] as const) : []), 'malformed_body', ...Array<ProbeKind>(samples).fill('latency')]
  // Built before anything is sent: a secret in the wrong format fails here, not halfway through.
  buildProbe('valid', battery, clock.now())

  const ownDispatcher = deps.dispatcher === undefined
  const dispatcher = deps.dispatcher ?? new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 1 })
  const startedAt = clock.now()
  const seen = new Map<ProbeKind, ProbeObservation>()
  const latency: ProbeObservation[] = []
  try {
    let first: ProbeRequest | null = null
    for (const [index, kind] of kinds.entries()) {
      options.signal?.throwIfAborted()
      const same = kind === 'duplicate' && first ? { eventId: first.eventId, body: first.body } : undefined
      const request = buildProbe(kind, battery, clock.now(), same)
      if (kind === 'valid') first = request
      const result = await postOnce({ url: options.url, headers: request.headers, body: request.body, clock, timeoutMs, followRedirects: 0, maxResponseBytes: MAX_RESPONSE_BYTES, dispatcher })
      if (index === 0 && (result.outcome === 'connection_refused' || result.outcome === 'dns')) {
        throw new ConsumerUnreachableError(options.url, result.outcome, result.error ?? '')
      }
      const observation = observe(result)
      if (kind === 'latency') latency.push(observation)
      else seen.set(kind, observation)
      options.onProbe?.(kind, index, kinds.length, observation)
    }
  } finally {
    if (ownDispatcher) await dispatcher.close()
  }
  const get = (kind: ProbeKind): ProbeObservation => {
    const observation = seen.get(kind)
    if (!observation) throw new Error(`internal: no answer recorded for the ${kind} request`)
    return observation
  }
  const checks = gradeConsumer({
    valid: get('valid'),
    duplicate: get('duplicate'),
    wrongSignature: get('wrong_signature'),
    missingSignature: get('missing_signature'),
    staleTimestamp: withStale ? get('stale_timestamp') : null,
    staleBySeconds: staleBySeconds(options.scheme, options.custom),
    malformedBody: get('malformed_body'),
    latency,
    timeoutMs,
    warnAboveMs,
  })
  return {
    ok: checks.every((c) => c.passed),
    url: options.url,
    scheme: options.scheme,
    started_at: startedAt,
    wall_ms: Math.round(clock.now() - startedAt),
    timeout_ms: timeoutMs,
    warn_above_ms: warnAboveMs,
    checks,
    latency: latency.length ? latencyStats(latency) : null,
  }
}
