// Judges a finished run against the scenario's expectations. Pure: it sees only the report's
// deliveries and endpoints, so the same verdicts come out of a live run and a saved report.
import { eventLocalId, type DeliveryExpectation, type EndpointExpectation, type Scenario } from '../../../shared/scenario'
import type { ExpectationResult, ExpectationSubject, ReportDelivery, ReportEndpoint } from '../../../shared/scenario-report'
import { formatPath } from '../../../shared/scenario-issues'

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

function timesDifference(expected: readonly number[], actual: readonly number[], tolerance: number): string | null {
  if (expected.length !== actual.length) return `${actual.length} attempts at ${JSON.stringify(actual)} ms; expected ${expected.length} at ${JSON.stringify(expected)} ms`
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] ?? 0
    const a = actual[i] ?? 0
    if (Math.abs(a - e) > tolerance) return `attempt ${i + 1} at ${a} ms, expected ${e} ms${tolerance ? ` (±${tolerance})` : ''}`
  }
  return null
}

export function evaluateDelivery(exp: DeliveryExpectation, index: number, delivery: ReportDelivery | undefined, subscription: string): ExpectationResult[] {
  const base: (string | number)[] = ['expect', 'deliveries', index]
  const label = (field: string) => `${exp.event} → ${subscription}${exp.copy ? ' (copy)' : ''}: ${field}`
  const about = (field: string): ExpectationSubject => ({ kind: 'delivery', event: exp.event, subscription, copy: exp.copy, field })
  const out: ExpectationResult[] = []
  const fields = (['status', 'attempts', 'at_ms', 'outcomes', 'duplicates', 'duplicates_flagged', 'signatures'] as const).filter((f) => exp[f] !== undefined)
  if (!delivery) {
    // A delivery that never came into being (e.g. a dropped event) fails every check on it.
    for (const field of fields) out.push(result([...base, field], about(field), label(field), exp[field], null, `no ${exp.copy ? 'duplicate copy' : 'delivery'} of ${exp.event} to ${subscription} was made`))
    return out
  }
  const attempts = delivery.attempts
  for (const field of fields) {
    const path = [...base, field]
    switch (field) {
      case 'status':
        out.push(result(path, about(field), label(field), exp.status, delivery.status, delivery.status === exp.status ? null : `status is ${delivery.status}, expected ${exp.status}`))
        break
      case 'attempts':
        out.push(result(path, about(field), label(field), exp.attempts, attempts.length, attempts.length === exp.attempts ? null : `${attempts.length} attempts, expected ${exp.attempts}`))
        break
      case 'at_ms': {
        const actual = attempts.map((a) => a.at_ms)
        out.push(result(path, about(field), label(field), exp.at_ms, actual, timesDifference(exp.at_ms ?? [], actual, exp.tolerance_ms)))
        break
      }
      case 'outcomes': {
        const actual = attempts.map((a) => a.outcome)
        out.push(result(path, about(field), label(field), exp.outcomes, actual, listDifference('outcome', exp.outcomes ?? [], actual)))
        break
      }
      case 'duplicates': {
        const actual = attempts.map((a) => a.duplicate)
        out.push(result(path, about(field), label(field), exp.duplicates, actual, listDifference('duplicate number', exp.duplicates ?? [], actual)))
        break
      }
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

export function evaluateEndpoint(exp: EndpointExpectation, index: number, endpoint: ReportEndpoint | undefined): ExpectationResult[] {
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
  return out
}

/** The delivery an expectation is about: the event's only subscription unless one is named. */
export function findDelivery(scenario: Scenario, exp: DeliveryExpectation, deliveries: readonly ReportDelivery[]): { subscription: string; delivery: ReportDelivery | undefined } {
  const eventIndex = scenario.events.findIndex((e, i) => eventLocalId(e, i) === exp.event)
  const event = scenario.events[eventIndex]
  const subscription = exp.subscription ?? event?.subscriptions?.[0] ?? scenario.subscriptions[0]?.id ?? ''
  // The original delivery, or with `copy` the second one a `duplicate` fault made.
  return { subscription, delivery: deliveries.find((d) => d.event === exp.event && d.subscription === subscription && (d.duplicate_of !== null) === exp.copy) }
}

export function evaluateExpectations(scenario: Scenario, deliveries: readonly ReportDelivery[], endpoints: readonly ReportEndpoint[]): ExpectationResult[] {
  const results: ExpectationResult[] = []
  scenario.expect.deliveries.forEach((exp, i) => {
    const { subscription, delivery } = findDelivery(scenario, exp, deliveries)
    results.push(...evaluateDelivery(exp, i, delivery, subscription))
  })
  scenario.expect.endpoints.forEach((exp, i) => {
    results.push(...evaluateEndpoint(exp, i, endpoints.find((e) => e.slug === exp.endpoint)))
  })
  return results
}
