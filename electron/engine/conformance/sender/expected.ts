// The policy's expected attempts for one event, anchored on what was observed: attempt n+1 is
// expected at (arrival n + its duration + the delay the policy decides after it). Where the
// observed arrivals end, further ghosts chain from the previous ghost, assuming the same outcome.
import type { ExpectedAttempt, IntervalComparison, ObservedArrival, SenderTolerance } from '../../../../shared/conformance'
import { decideAfterAttempt, type AttemptOutcome, type Policy } from '../../../../shared/sender'

export interface ExpectedPlan {
  expected: ExpectedAttempt[]
  intervals: IntervalComparison[]
}

function toleranceFor(delayMs: number, tolerance: SenderTolerance, policy: Policy): number {
  // Jitter is seeded per delivery on the sender side, which the receiver cannot know: allow its span.
  const jitter = policy.jitter ? policy.jitter.ratio * delayMs : 0
  return Math.round(Math.max(tolerance.ms, (tolerance.pct / 100) * delayMs, jitter))
}

export function expectedAttempts(arrivals: readonly ObservedArrival[], policy: Policy, tolerance: SenderTolerance): ExpectedPlan {
  const first = arrivals[0]
  if (!first) return { expected: [], intervals: [] }
  const exact: Policy = { ...policy, jitter: undefined }
  const expected: ExpectedAttempt[] = [{ n: 1, at: first.at, tolerance_ms: 0, delay_ms: 0, observed: true }]
  const intervals: IntervalComparison[] = []
  let previous: { at: number; end: number; outcome: string; retryAfter: string | null } = {
    at: first.at,
    end: first.at + first.duration_ms,
    outcome: first.outcome,
    retryAfter: first.retry_after,
  }
  for (let n = 2; n <= policy.max_attempts; n++) {
    const decision = decideAfterAttempt(exact, {
      attempt: n - 1,
      outcome: previous.outcome as AttemptOutcome,
      now: previous.end,
      ...(previous.retryAfter === null ? {} : { retryAfter: previous.retryAfter }),
    })
    if (decision.decision !== 'retry') break
    const tol = toleranceFor(decision.delay_ms, tolerance, policy)
    const arrival = arrivals[n - 1]
    expected.push({ n, at: decision.at, tolerance_ms: tol, delay_ms: decision.delay_ms, observed: arrival !== undefined })
    if (arrival) {
      const diff = arrival.at - decision.at
      intervals.push({
        n,
        expected_at: decision.at,
        observed_at: arrival.at,
        expected_delay_ms: decision.delay_ms,
        observed_delay_ms: arrival.at - previous.end,
        diff_ms: diff,
        tolerance_ms: tol,
        within: Math.abs(diff) <= tol,
      })
      previous = { at: arrival.at, end: arrival.at + arrival.duration_ms, outcome: arrival.outcome, retryAfter: arrival.retry_after }
    } else {
      // Not observed: assume the same outcome again, answered at once.
      previous = { ...previous, at: decision.at, end: decision.at }
    }
  }
  return { expected, intervals }
}
