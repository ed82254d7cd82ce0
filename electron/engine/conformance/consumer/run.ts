// Runs the consumer check: sends the battery one request at a time (so the endpoint sees them in
// order, like a provider's deliveries) over the sender's own HTTP attempt (postOnce: timeout on
// the clock, redirects never followed, outcome words of the policy) and grades the answers.
import { Agent, type Dispatcher } from 'undici'
import type { Clock } from '../../../../shared/clock'
import { CONSUMER_CHECK_DEFAULTS, type ConsumerCheck, type ConsumerCheckResult, type ConsumerCheckSettings, type LatencyStats, type ProbeObservation } from '../../../../shared/conformance'
import { HANDSHAKES, handshakeNeedsSecret, isHandshakeKind } from '../../../../shared/receiver'
import { isSchemeId, type SchemeId } from '../../../../shared/signatures'
import { createRealClock } from '../../clock'
import { postOnce, type PostResult } from '../../sender'
import { buildProbe, signsTimestamp, staleBySeconds, type BatteryInput, type ProbeKind, type ProbeRequest } from './battery'
import { gradeConsumer } from './grade'
import { gradeHandshakeAnswer, makeHandshake } from './handshake'
import { latencyStats } from './latency'

export interface ConsumerCheckOptions extends ConsumerCheckSettings {
  /** Stops the battery before its next request (the UI's Cancel); the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** Called after each request, e.g. to show progress: (kind, index, total); the handshake is index -1. */
  onProbe?: (kind: ProbeKind | 'handshake', index: number, total: number, observation: ProbeObservation) => void
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
  if (options.scheme === undefined && options.handshake === undefined) throw new ConsumerCheckInputError('nothing to check: give a scheme (the battery of deliveries), a handshake, or both')
  if (options.scheme !== undefined && !isSchemeId(options.scheme)) throw new ConsumerCheckInputError(`unknown scheme "${String(options.scheme)}"`)
  if (options.handshake !== undefined && !isHandshakeKind(options.handshake)) throw new ConsumerCheckInputError(`unknown handshake "${String(options.handshake)}"`)
  if (options.scheme !== undefined && !options.secret) throw new ConsumerCheckInputError('the signing secret is empty')
  if (options.handshake !== undefined && handshakeNeedsSecret(options.handshake) && !options.secret) {
    const what = HANDSHAKES.entries[options.handshake].answerSecret ?? 'the signing secret'
    throw new ConsumerCheckInputError(`the ${HANDSHAKES.entries[options.handshake].label} handshake needs a secret (${what})`)
  }
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
  const scheme = options.scheme
  // Built before anything is sent: a secret in the wrong format fails here, not halfway through.
  const battery = scheme === undefined ? null : batteryInput(options, scheme)
  if (battery) buildProbe('valid', battery, clock.now())

  const ownDispatcher = deps.dispatcher === undefined
  const dispatcher = deps.dispatcher ?? new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 1 })
  const startedAt = clock.now()
  const checks: ConsumerCheck[] = []
  let latency: LatencyStats | null = null
  try {
    // The handshake first: a provider makes it before it delivers anything.
    if (options.handshake !== undefined) {
      options.signal?.throwIfAborted()
      const answer = await makeHandshake(options.handshake, { url: options.url, secret: options.secret ?? '', clock, dispatcher })
      const { outcome, error } = answer.observation
      if (outcome === 'connection_refused' || outcome === 'dns') throw new ConsumerUnreachableError(options.url, outcome, error ?? '')
      options.onProbe?.('handshake', -1, 0, answer.observation)
      checks.push(gradeHandshakeAnswer(answer, options.secret ?? ''))
    }
    if (battery && scheme !== undefined) {
      const graded = await runBattery(options, battery, scheme, { clock, dispatcher, timeoutMs, warnAboveMs, first: checks.length === 0 })
      checks.push(...graded.checks)
      latency = graded.latency
    }
  } finally {
    if (ownDispatcher) await dispatcher.close()
  }
  return {
    ok: checks.every((c) => c.passed),
    url: options.url,
    scheme: scheme ?? null,
    handshake: options.handshake ?? null,
    started_at: startedAt,
    wall_ms: Math.round(clock.now() - startedAt),
    timeout_ms: timeoutMs,
    warn_above_ms: warnAboveMs,
    checks,
    latency,
  }
}

function batteryInput(options: ConsumerCheckOptions, scheme: SchemeId): BatteryInput {
  return {
    url: options.url,
    scheme,
    secret: options.secret ?? '',
    eventType: options.eventType ?? CONSUMER_CHECK_DEFAULTS.eventType,
    ...(options.custom ? { custom: options.custom } : {}),
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  }
}

interface BatteryRun {
  clock: Clock
  dispatcher: Dispatcher
  timeoutMs: number
  warnAboveMs: number
  /** Whether the battery's first request is the run's first (an unreachable URL is then reported as such). */
  first: boolean
}

/** The battery of deliveries, one request at a time, graded. */
async function runBattery(options: ConsumerCheckOptions, battery: BatteryInput, scheme: SchemeId, run: BatteryRun): Promise<{ checks: ConsumerCheck[]; latency: LatencyStats | null }> {
  const { clock, dispatcher, timeoutMs, warnAboveMs } = run
  const samples = options.latencySamples ?? CONSUMER_CHECK_DEFAULTS.latencySamples
  const withStale = signsTimestamp(scheme, options.custom)
  const kinds: ProbeKind[] = ['valid', 'duplicate', 'wrong_signature', 'missing_signature', ...(withStale ? (['stale_timestamp'] as const) : []), 'malformed_body', ...Array<ProbeKind>(samples).fill('latency')]
  const seen = new Map<ProbeKind, ProbeObservation>()
  const latency: ProbeObservation[] = []
  let first: ProbeRequest | null = null
  for (const [index, kind] of kinds.entries()) {
    options.signal?.throwIfAborted()
    const same = kind === 'duplicate' && first ? { eventId: first.eventId, body: first.body } : undefined
    const request = buildProbe(kind, battery, clock.now(), same)
    if (kind === 'valid') first = request
    const result = await postOnce({ url: options.url, headers: request.headers, body: request.body, clock, timeoutMs, followRedirects: 0, maxResponseBytes: MAX_RESPONSE_BYTES, dispatcher })
    if (index === 0 && run.first && (result.outcome === 'connection_refused' || result.outcome === 'dns')) {
      throw new ConsumerUnreachableError(options.url, result.outcome, result.error ?? '')
    }
    const observation = observe(result)
    if (kind === 'latency') latency.push(observation)
    else seen.set(kind, observation)
    options.onProbe?.(kind, index, kinds.length, observation)
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
    staleBySeconds: staleBySeconds(scheme, options.custom),
    malformedBody: get('malformed_body'),
    latency,
    timeoutMs,
    warnAboveMs,
  })
  return { checks, latency: latency.length ? latencyStats(latency) : null }
}
