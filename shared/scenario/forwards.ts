// Judges what a forward target (your app) saw and answered during a run: the legs to it, maybe
// of one endpoint or one event, counted, their statuses and outcomes in order, their latency
// against bounds. Pure, like the other expectations: it reads only the report's forward legs.
import type { ForwardExpectation, ReportForwardLeg } from './forward-mode'
import type { ExpectationResult } from './report'
import { formatPath } from './issues'

type Path = (string | number)[]

function listDifference(what: string, expected: readonly unknown[], actual: readonly unknown[]): string | null {
  if (expected.length === actual.length && expected.every((v, i) => v === actual[i])) return null
  if (expected.length !== actual.length) return `${actual.length} requests reached it with ${what} ${JSON.stringify(actual)}; expected ${expected.length}: ${JSON.stringify(expected)}`
  const i = expected.findIndex((v, j) => v !== actual[j])
  return `request ${i + 1} has ${what} ${JSON.stringify(actual[i])}, expected ${JSON.stringify(expected[i])}`
}

/** The legs an expectation is about. */
export function legsFor(exp: ForwardExpectation, target: string, legs: readonly ReportForwardLeg[]): ReportForwardLeg[] {
  return legs.filter((l) => l.target_url.startsWith(target) && (exp.endpoint === undefined || l.endpoint === exp.endpoint) && (exp.event === undefined || l.event === exp.event) && (exp.kind === undefined || l.kind === exp.kind))
}

export function evaluateForward(exp: ForwardExpectation, index: number, app: string | undefined, all: readonly ReportForwardLeg[]): ExpectationResult[] {
  const target = exp.target ?? app ?? ''
  const legs = legsFor(exp, target, all)
  const base: Path = ['expect', 'forwards', index]
  const scope = [exp.endpoint === undefined ? '' : ` from endpoint ${exp.endpoint}`, exp.event === undefined ? '' : ` of event ${exp.event}`, exp.kind === undefined ? '' : ` (${exp.kind})`].join('')
  const label = (field: string) => `forward to ${target}${scope}: ${field}`
  const out: ExpectationResult[] = []
  const push = (field: string, expected: unknown, actual: unknown, failure: string | null) =>
    out.push({ path: formatPath([...base, field]), subject: { kind: 'forward', target, endpoint: exp.endpoint ?? null, event: exp.event ?? null, field }, label: label(field), ok: failure === null, expected, actual, message: failure ?? '' })
  if (exp.requests !== undefined) push('requests', exp.requests, legs.length, legs.length === exp.requests ? null : `${legs.length} requests reached ${target}${scope}, expected ${exp.requests}`)
  if (exp.statuses !== undefined) {
    const actual = legs.map((l) => l.status)
    push('statuses', exp.statuses, actual, listDifference('status', exp.statuses, actual))
  }
  if (exp.outcomes !== undefined) {
    const actual = legs.map((l) => l.outcome)
    push('outcomes', exp.outcomes, actual, listDifference('outcome', exp.outcomes, actual))
  }
  if (exp.latency_ms !== undefined) {
    const { min, max } = exp.latency_ms
    const actual = legs.map((l) => l.latency_ms)
    const i = actual.findIndex((ms) => ms === null || (max !== undefined && ms > max) || (min !== undefined && ms < min))
    const bound = [min === undefined ? '' : `≥ ${min} ms`, max === undefined ? '' : `≤ ${max} ms`].filter(Boolean).join(' and ')
    const failure = legs.length === 0 ? `no request reached ${target}${scope}, expected latencies ${bound}` : i === -1 ? null : actual[i] === null ? `request ${i + 1} got no answer (${legs[i]?.outcome}), expected a latency ${bound}` : `request ${i + 1} took ${actual[i]} ms, expected ${bound}`
    push('latency_ms', exp.latency_ms, actual, failure)
  }
  return out
}

export function evaluateForwards(expectations: readonly ForwardExpectation[], app: string | undefined, legs: readonly ReportForwardLeg[]): ExpectationResult[] {
  return expectations.flatMap((exp, i) => evaluateForward(exp, i, app, legs))
}
