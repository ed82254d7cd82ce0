// Judges a finished run against the scenario's expectations. Pure: it sees only the report's
// deliveries and endpoints, so the same verdicts come out of a live run and a saved report, and
// every door (`hookloop run` and `import`, the app's Scenarios page) counts and says them alike.
import { eventLocalId, type DeliveryExpectation, type EndpointExpectation, type Scenario } from './schema'
import { formatPath } from './issues'
import { statusOfWord } from './status-words'
import type { ExpectationResult, ExpectationSubject, ReportArrival, ReportDelivery, ReportEndpoint, ReportForwardLeg, ScenarioReport } from './report'
import { evaluateArrivals } from './arrivals'
import { evaluateForwards } from './forwards'
import { evaluateSchemaExpectation } from './payload-schema'

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i])
}

function result(path: (string | number)[], subject: ExpectationSubject, label: string, expected: unknown, actual: unknown, failure: string | null): ExpectationResult {
  return { path: formatPath(path), subject, label, ok: failure === null, expected, actual, message: failure ?? '' }
}

/** First difference between two lists of attempt values, said the way a person reads it. */
function listDifference(what: string, expected: readonly unknown[], actual: readonly unknown[]): string | null {
  if (sameList(expected, actual)) return null
  if (expected.length !== actual.length) return `${actual.length} attempts have ${what}s ${JSON.stringify(actual)}; expected ${expected.length}: ${JSON.stringify(expected)}`
  const i = expected.findIndex((v, j) => v !== actual[j])
  return `attempt ${i + 1} has ${what} ${JSON.stringify(actual[i])}, expected ${JSON.stringify(expected[i])}`
}

function timesDifference(expected: readonly (number | null)[], actual: readonly (number | null)[], tolerance: number, what = 'at'): string | null {
  if (expected.length !== actual.length) return `${actual.length} attempts ${what} ${JSON.stringify(actual)} ms; expected ${expected.length} ${what} ${JSON.stringify(expected)} ms`
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] ?? null
    const a = actual[i] ?? null
    const differs = e === null || a === null ? e !== a : Math.abs(a - e) > tolerance
    if (differs) return `attempt ${i + 1} ${what} ${a === null ? 'none' : `${a} ms`}, expected ${e === null ? 'none' : `${e} ms`}${tolerance && e !== null ? ` (±${tolerance})` : ''}`
  }
  return null
}

type Attempt = ReportDelivery['attempts'][number]

/** Per-attempt times an expectation lists, how each is read from an attempt and said in a failure. */
const ATTEMPT_TIMES = {
  run_ms: { of: (a: Attempt) => a.run_ms, says: 'at run +' },
  durations_ms: { of: (a: Attempt) => a.duration_ms, says: 'took' },
  next_at_ms: { of: (a: Attempt) => a.next_at_ms, says: 'has its next attempt at' },
  at_ms: { of: (a: Attempt) => a.at_ms, says: 'at' },
} as const

/** Per-attempt values compared as lists, and what a failure calls them. */
const ATTEMPT_LISTS = {
  decisions: { of: (a: Attempt): unknown => a.decision, what: 'decision' },
  outcomes: { of: (a: Attempt): unknown => a.outcome, what: 'outcome' },
  duplicates: { of: (a: Attempt): unknown => a.duplicate, what: 'duplicate number' },
} as const

/** The delivery fields an expectation can check, in the order results are listed. */
const DELIVERY_FIELDS = ['status', 'attempts', 'at_ms', 'run_ms', 'durations_ms', 'decisions', 'next_at_ms', 'outcomes', 'duplicates', 'duplicates_flagged', 'signatures'] as const

export function evaluateDelivery(exp: DeliveryExpectation, index: number, delivery: ReportDelivery | undefined, subscription: string, preset?: string): ExpectationResult[] {
  const base: (string | number)[] = ['expect', 'deliveries', index]
  const which = exp.copy ? ' (copy)' : exp.resend !== undefined ? ` (resend #${exp.resend})` : ''
  const label = (field: string) => `${exp.event} → ${subscription}${which}: ${field}`
  const about = (field: string): ExpectationSubject => ({ kind: 'delivery', event: exp.event, subscription, copy: exp.copy, ...(exp.resend === undefined ? {} : { resend: exp.resend }), field })
  const out: ExpectationResult[] = []
  const fields = DELIVERY_FIELDS.filter((f) => exp[f] !== undefined)
  if (!delivery) {
    // A delivery that never came into being (e.g. a dropped event) fails every check on it.
    const what = exp.copy ? 'duplicate copy' : exp.resend !== undefined ? `resend #${exp.resend}` : 'delivery'
    for (const field of fields) out.push(result([...base, field], about(field), label(field), exp[field], null, `no ${what} of ${exp.event} to ${subscription} was made`))
    return out
  }
  const attempts = delivery.attempts
  for (const field of fields) {
    const path = [...base, field]
    switch (field) {
      case 'status': {
        // Ours or the preset's own word: `failed_permanent` under csku is our `failed`.
        const word = delivery.status_word ?? delivery.status
        const meant = exp.status === undefined ? undefined : statusOfWord(preset, exp.status)
        const shown = word === delivery.status ? delivery.status : `${word} (${delivery.status})`
        out.push(result(path, about(field), label(field), exp.status, word, meant === delivery.status ? null : `status is ${shown}, expected ${exp.status}`))
        break
      }
      case 'run_ms':
      case 'durations_ms':
      case 'next_at_ms':
      case 'at_ms': {
        const { of, says } = ATTEMPT_TIMES[field]
        const actual = attempts.map(of)
        out.push(result(path, about(field), label(field), exp[field], actual, timesDifference(exp[field] ?? [], actual, exp.tolerance_ms, says)))
        break
      }
      case 'decisions':
      case 'outcomes':
      case 'duplicates': {
        const { of, what } = ATTEMPT_LISTS[field]
        const actual = attempts.map(of)
        out.push(result(path, about(field), label(field), exp[field], actual, listDifference(what, exp[field] ?? [], actual)))
        break
      }
      case 'attempts':
        out.push(result(path, about(field), label(field), exp.attempts, attempts.length, attempts.length === exp.attempts ? null : `${attempts.length} attempts, expected ${exp.attempts}`))
        break
      case 'duplicates_flagged': {
        const actual = attempts.filter((a) => (a.duplicate ?? 0) > 1).length
        out.push(result(path, about(field), label(field), exp.duplicates_flagged, actual, actual === exp.duplicates_flagged ? null : `${actual} attempts flagged as duplicates, expected ${exp.duplicates_flagged}`))
        break
      }
      case 'signatures': {
        const actual = attempts.map((a) => a.signature)
        const expected = typeof exp.signatures === 'string' ? attempts.map(() => exp.signatures as string) : (exp.signatures ?? [])
        let failure = listDifference('signature result', expected, actual)
        if (typeof exp.signatures === 'string' && attempts.length === 0) failure = `no attempts were made, expected signature results ${JSON.stringify(exp.signatures)}`
        out.push(result(path, about(field), label(field), exp.signatures, actual, failure))
        break
      }
      default: {
        const unhandled: never = field
        throw new Error(`unhandled expectation field ${String(unhandled)}`)
      }
    }
  }
  return out
}

function countsDifference(expected: Record<string, number>, actual: Record<string, number>): string | null {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort()
  const wrong = keys.filter((k) => (expected[k] ?? 0) !== (actual[k] ?? 0))
  if (wrong.length === 0) return null
  return wrong.map((k) => `${k}: ${actual[k] ?? 0}, expected ${expected[k] ?? 0}`).join('; ')
}

export function evaluateEndpoint(exp: EndpointExpectation, index: number, endpoint: ReportEndpoint | undefined, arrivals: readonly ReportArrival[] = []): ExpectationResult[] {
  const base: (string | number)[] = ['expect', 'endpoints', index]
  const label = (field: string) => `endpoint ${exp.endpoint}: ${field}`
  const about = (field: string): ExpectationSubject => ({ kind: 'endpoint', endpoint: exp.endpoint, field })
  const actual: ReportEndpoint = endpoint ?? { slug: exp.endpoint, requests: 0, duplicates_flagged: 0, signatures: {} }
  const out: ExpectationResult[] = []
  if (exp.requests !== undefined) {
    out.push(result([...base, 'requests'], about('requests'), label('requests'), exp.requests, actual.requests, actual.requests === exp.requests ? null : `${actual.requests} requests received, expected ${exp.requests}`))
  }
  if (exp.duplicates_flagged !== undefined) {
    out.push(
      result([...base, 'duplicates_flagged'], about('duplicates_flagged'), label('duplicates_flagged'), exp.duplicates_flagged, actual.duplicates_flagged, actual.duplicates_flagged === exp.duplicates_flagged ? null : `${actual.duplicates_flagged} requests flagged as duplicates, expected ${exp.duplicates_flagged}`),
    )
  }
  if (exp.signatures !== undefined) {
    out.push(result([...base, 'signatures'], about('signatures'), label('signatures'), exp.signatures, actual.signatures, countsDifference(exp.signatures, actual.signatures)))
  }
  if (exp.arrivals !== undefined) out.push(...evaluateArrivals(exp.arrivals, [...base, 'arrivals'], exp.endpoint, arrivals.filter((a) => a.endpoint === exp.endpoint), exp.tolerance_ms))
  return out
}

/** The delivery an expectation is about: the event's only subscription unless one is named. */
export function findDelivery(scenario: Scenario, exp: DeliveryExpectation, deliveries: readonly ReportDelivery[]): { subscription: string; delivery: ReportDelivery | undefined } {
  const eventIndex = scenario.events.findIndex((e, i) => eventLocalId(e, i) === exp.event)
  const event = scenario.events[eventIndex]
  const subscription = exp.subscription ?? event?.subscriptions?.[0] ?? scenario.subscriptions[0]?.id ?? ''
  // The original delivery, with `copy` the second one a `duplicate` fault made, with `resend` the n-th resend's.
  return {
    subscription,
    delivery: deliveries.find((d) => d.event === exp.event && d.subscription === subscription && (d.duplicate_of !== null) === exp.copy && (d.resend ?? undefined) === exp.resend),
  }
}

/** The preset a subscription's policy names (undefined for an explicit one). */
export function presetOf(scenario: Scenario, subscription: string): string | undefined {
  const policy = scenario.subscriptions.find((s) => s.id === subscription)?.policy
  if (policy === undefined) return undefined
  return typeof policy === 'string' ? policy : policy.name === undefined || policy.name === policy.preset ? policy.preset : undefined
}

/** The verdict a scenario without one expectation gets: it tested nothing, so it fails unless a smoke run. */
export function noExpectations(scenario: Scenario): ExpectationResult | null {
  const count = scenario.expect.deliveries.length + scenario.expect.endpoints.length + scenario.expect.forwards.length + (scenario.expect.schema === undefined ? 0 : 1)
  if (count > 0 || scenario.smoke) return null
  return result(['expect'], { kind: 'scenario', field: 'expect' }, 'expectations', 'at least one expectation (or "smoke": true)', 0, 'no expectations: this scenario checks nothing; add expectations under "expect", or mark it "smoke": true if running it is the whole test')
}

export function evaluateExpectations(scenario: Scenario, deliveries: readonly ReportDelivery[], endpoints: readonly ReportEndpoint[], arrivals: readonly ReportArrival[] = [], forwards: readonly ReportForwardLeg[] = []): ExpectationResult[] {
  const results: ExpectationResult[] = []
  scenario.expect.deliveries.forEach((exp, i) => {
    const { subscription, delivery } = findDelivery(scenario, exp, deliveries)
    results.push(...evaluateDelivery(exp, i, delivery, subscription, presetOf(scenario, subscription)))
  })
  scenario.expect.endpoints.forEach((exp, i) => {
    results.push(...evaluateEndpoint(exp, i, endpoints.find((e) => e.slug === exp.endpoint), arrivals))
  })
  results.push(...evaluateForwards(scenario.expect.forwards, scenario.app, forwards))
  results.push(...evaluateSchemaExpectation(scenario, arrivals))
  const none = noExpectations(scenario)
  if (none) results.push(none)
  return results
}

/**
 * A run's verdict in one line, the last of `hookloop run`'s summary and the head of the app's
 * report: "PASS: 5 of 5 expectations hold", "FAIL: 1 of 5 expectations failed" …, counted as
 * `expectationCount` counts them.
 */
export function verdictLine(report: Pick<ScenarioReport, 'ok' | 'expectations' | 'actions' | 'incomplete'>): string {
  // A scenario without expectations fails with a verdict of its own (path "expect"), not "1 of 1".
  const none = report.expectations.find((e) => e.path === 'expect' && !e.ok)
  const failed = report.expectations.filter((e) => !e.ok && e !== none).length
  const total = report.expectations.length
  const failedActions = report.actions.filter((a) => !a.ok).length
  if (report.ok) return `PASS: ${total} of ${total} expectations hold${total === 0 ? ' (a smoke run: it only had to run)' : ''}`
  if (failed) return `FAIL: ${failed} of ${total} expectations failed`
  if (failedActions) return `FAIL: ${failedActions} of ${report.actions.length} actions could not be done`
  if (report.incomplete === null && none) return 'FAIL: no expectations (a smoke run on purpose says "smoke": true)'
  return 'FAIL: the run did not settle'
}

/**
 * How many expectations a run of the scenario judges: the ✓ / ✗ lines of `hookloop run` and the
 * testcases of its JUnit. Every check yields one result whether or not its delivery or arrival
 * came to be, so judging an empty run counts them: one definition for every door that says it.
 */
export function expectationCount(scenario: Scenario): number {
  return evaluateExpectations(scenario, [], [], [], []).length
}
