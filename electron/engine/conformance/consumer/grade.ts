// Grades what the endpoint answered to each request of the battery. Pure: observations in,
// checks out, so every verdict is unit-tested without a network.
import type { CheckSeverity, ConsumerCheck, ConsumerCheckId, ProbeObservation } from '../../../../shared/conformance'
import { CONSUMER_ADVICE } from './advice'
import { isSuccess, latencyStats } from './latency'

export interface GradeInput {
  valid: ProbeObservation
  duplicate: ProbeObservation
  wrongSignature: ProbeObservation
  missingSignature: ProbeObservation
  /** null when the scheme signs no timestamp (the check is skipped). */
  staleTimestamp: ProbeObservation | null
  staleBySeconds: number
  malformedBody: ProbeObservation
  latency: ProbeObservation[]
  timeoutMs: number
  warnAboveMs: number
}

function check(id: ConsumerCheckId, severity: CheckSeverity, detail: string, probes: ProbeObservation[]): ConsumerCheck {
  const advice = CONSUMER_ADVICE[id]
  return { id, title: advice.title, passed: severity !== 'fail', severity, detail, why: advice.why, fix: advice.fix, probes }
}

/** "answered 401 in 12 ms: invalid signature", "no complete answer within 10000 ms" … */
export function describeAnswer(p: ProbeObservation): string {
  if (p.status_code === null) {
    if (p.outcome === 'timeout') return `no complete answer within ${p.duration_ms} ms (timeout)`
    return `${p.outcome.replace(/_/g, ' ')}${p.error ? ` (${p.error})` : ''}`
  }
  const to = p.location ? ` to ${p.location}` : ''
  const excerpt = p.response_excerpt ? `: ${p.response_excerpt}` : ''
  return `answered ${p.status_code}${to} in ${p.duration_ms} ms${excerpt}`
}

function is4xx(p: ProbeObservation): boolean {
  return p.status_code !== null && p.status_code >= 400 && p.status_code < 500
}

/** A request the endpoint must refuse with 4xx; says what was wrong with what it did instead. */
function mustReject(id: ConsumerCheckId, p: ProbeObservation, what: string): ConsumerCheck {
  const answer = describeAnswer(p)
  if (is4xx(p)) return check(id, 'pass', `${what}: ${answer}`, [p])
  if (isSuccess(p)) return check(id, 'fail', `${what} was accepted: ${answer}`, [p])
  if (p.status_code !== null && p.status_code >= 500) return check(id, 'fail', `${what} ${answer}; a 5xx makes the provider retry it, answer 4xx instead`, [p])
  return check(id, 'fail', `${what}: ${answer}; expected a 4xx`, [p])
}

function gradeValid(p: ProbeObservation, timeoutMs: number, warnAboveMs: number): ConsumerCheck {
  const answer = describeAnswer(p)
  if (!isSuccess(p)) return check('valid_delivery', 'fail', `a correctly signed event ${answer}; expected 2xx within ${timeoutMs} ms`, [p])
  if (p.duration_ms > warnAboveMs) return check('valid_delivery', 'warn', `a correctly signed event ${answer}, slower than ${warnAboveMs} ms (the timeout is ${timeoutMs} ms)`, [p])
  return check('valid_delivery', 'pass', `a correctly signed event ${answer}`, [p])
}

function gradeDuplicate(p: ProbeObservation, valid: ProbeObservation): ConsumerCheck {
  const answer = describeAnswer(p)
  if (isSuccess(p)) return check('duplicate_tolerated', 'pass', `the same event id again ${answer}`, [valid, p])
  return check('duplicate_tolerated', 'fail', `the same event id again ${answer}; expected 2xx`, [valid, p])
}

function gradeRedirects(all: ProbeObservation[]): ConsumerCheck {
  const redirected = all.filter((p) => p.status_code !== null && p.status_code >= 300 && p.status_code < 400)
  const first = redirected[0]
  if (first === undefined) return check('no_redirect', 'pass', `none of ${all.length} requests was redirected`, [])
  return check('no_redirect', 'fail', `${redirected.length} of ${all.length} requests were redirected: ${describeAnswer(first)}`, redirected)
}

function gradeLatency(probes: ProbeObservation[], timeoutMs: number, warnAboveMs: number): ConsumerCheck {
  const stats = latencyStats(probes)
  const base = `p50 ${stats.p50_ms} ms, p95 ${stats.p95_ms} ms over ${stats.samples} valid events (min ${stats.min_ms}, max ${stats.max_ms})`
  const others = stats.non_2xx ? `; ${stats.non_2xx} not answered 2xx` : ''
  const timedOut = probes.filter((p) => p.outcome === 'timeout').length
  let severity: CheckSeverity = 'pass'
  let detail = `${base}${others}`
  if (timedOut > 0 || stats.p95_ms >= timeoutMs) {
    severity = 'fail'
    detail = `${base}; ${timedOut} ran into the ${timeoutMs} ms timeout${others}`
  } else if (stats.p95_ms > warnAboveMs || stats.non_2xx > 0) {
    severity = 'warn'
    detail = stats.p95_ms > warnAboveMs ? `${base}: p95 above ${warnAboveMs} ms${others}` : detail
  }
  return { ...check('latency', severity, detail, probes), latency: stats }
}

export function gradeConsumer(input: GradeInput): ConsumerCheck[] {
  const stale = input.staleTimestamp
  const all = [input.valid, input.duplicate, input.wrongSignature, input.missingSignature, ...(stale ? [stale] : []), input.malformedBody, ...input.latency]
  return [
    gradeValid(input.valid, input.timeoutMs, input.warnAboveMs),
    gradeDuplicate(input.duplicate, input.valid),
    mustReject('wrong_signature_rejected', input.wrongSignature, 'an event signed with a wrong secret'),
    mustReject('missing_signature_rejected', input.missingSignature, 'an event without a signature header'),
    stale
      ? mustReject('stale_timestamp_rejected', stale, `an event signed with a timestamp ${input.staleBySeconds} s old`)
      : check('stale_timestamp_rejected', 'skip', 'skipped: this scheme signs no timestamp, so replays cannot be told apart by time', []),
    mustReject('malformed_body_rejected', input.malformedBody, 'a correctly signed body that is not valid JSON'),
    gradeRedirects(all),
    gradeLatency(input.latency, input.timeoutMs, input.warnAboveMs),
  ]
}
