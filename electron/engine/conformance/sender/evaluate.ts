// One endpoint's captured requests against one policy → the sender conformance report.
// Pure: the requests and a lookup of requests by path come in, the report goes out.
import {
  SENDER_CHECK_IDS,
  type EventConformance,
  type SenderCheckId,
  type SenderCheckStatus,
  type SenderConformanceReport,
  type SenderTolerance,
} from '../../../../shared/conformance'
import type { Policy } from '../../../../shared/sender'
import type { RequestRecord } from '../../../../shared/receiver'
import { checkAttemptCount, checkIntervals, checkRedirects, checkStopsAfterFinal, checkStopsAfterSuccess, type PathLookup } from './checks'
import { expectedAttempts } from './expected'
import { groupByEvent, toArrivals } from './observe'

export interface SenderConformanceInput {
  endpoint: string
  requests: readonly RequestRecord[]
  policy: Policy
  tolerance: SenderTolerance
  /** Verdicts that depend on attempts not yet due are `pending` before this time. */
  asOf: number
  lookupPath: PathLookup
}

export function evaluateSenderConformance(input: SenderConformanceInput): SenderConformanceReport {
  const { policy, tolerance } = input
  const events: EventConformance[] = []
  for (const group of groupByEvent(input.requests)) {
    const arrivals = toArrivals(group.requests, policy)
    if (arrivals.length === 0) continue
    const plan = expectedAttempts(arrivals, policy, tolerance)
    const checks = [
      checkIntervals(plan.intervals, arrivals),
      checkStopsAfterSuccess(arrivals),
      checkStopsAfterFinal(arrivals),
      checkRedirects(arrivals, policy, input.lookupPath),
      checkAttemptCount(arrivals, plan.expected, policy, input.asOf),
    ]
    events.push({ key: group.key, key_source: group.key_source, arrivals, expected: plan.expected, intervals: plan.intervals, checks, ok: checks.every((c) => c.status !== 'fail') })
  }
  const summary = Object.fromEntries(SENDER_CHECK_IDS.map((id) => [id, { pass: 0, fail: 0, skip: 0, pending: 0 }])) as Record<SenderCheckId, Record<SenderCheckStatus, number>>
  for (const event of events) for (const check of event.checks) summary[check.id][check.status]++
  return { ok: events.every((e) => e.ok), endpoint: input.endpoint, policy: policy.name, tolerance, as_of: input.asOf, events, summary }
}
