// The five verdicts for one event's arrivals. Each says what was seen and, on a failure, what
// the policy says instead.
import { SENDER_CHECK_TITLES, type ExpectedAttempt, type IntervalComparison, type ObservedArrival, type SenderCheckId, type SenderCheckResult, type SenderCheckStatus } from '../../../../shared/conformance'
import type { Policy } from '../../../../shared/sender'
import type { RequestRecord } from '../../../../shared/receiver'

/** Requests that arrived at `path` in [from, to) (to null = no end). */
export type PathLookup = (path: string, from: number, to: number | null) => RequestRecord[]

const fmt = (ms: number) => `${Math.round(ms).toLocaleString('en-US')} ms`
const iso = (ms: number) => new Date(ms).toISOString()

function result(id: SenderCheckId, status: SenderCheckStatus, detail: string, request_ids: number[], extra: { expected?: string; observed?: string } = {}): SenderCheckResult {
  return { id, title: SENDER_CHECK_TITLES[id], status, detail, request_ids, ...extra }
}

export function checkIntervals(intervals: readonly IntervalComparison[], arrivals: readonly ObservedArrival[]): SenderCheckResult {
  if (intervals.length === 0) return result('intervals', 'skip', 'no retry to time: the first answer ended the event, or only one attempt arrived', [])
  const bad = intervals.filter((i) => !i.within)
  const ids = (list: readonly IntervalComparison[]) => list.map((i) => arrivals[i.n - 1]?.request_id ?? -1).filter((id) => id >= 0)
  if (bad.length === 0) {
    const worst = Math.max(...intervals.map((i) => Math.abs(i.diff_ms)))
    return result('intervals', 'pass', `${intervals.length} retr${intervals.length === 1 ? 'y' : 'ies'} on schedule (largest difference ${fmt(worst)})`, ids(intervals))
  }
  const first = bad[0] as IntervalComparison
  return result(
    'intervals',
    'fail',
    `attempt ${first.n} came ${fmt(first.observed_delay_ms)} after attempt ${first.n - 1} ended; the policy waits ${fmt(first.expected_delay_ms)} (±${fmt(first.tolerance_ms)})` +
      (bad.length > 1 ? `; ${bad.length - 1} more interval(s) off` : ''),
    ids(bad),
    { expected: `attempt ${first.n} at ${iso(first.expected_at)}`, observed: `at ${iso(first.observed_at)} (${first.diff_ms > 0 ? '+' : ''}${fmt(first.diff_ms)})` },
  )
}

function checkStop(id: 'stops_after_success' | 'stops_after_final', arrivals: readonly ObservedArrival[], decision: 'succeeded' | 'failed'): SenderCheckResult {
  const index = arrivals.findIndex((a) => a.decision === decision)
  const what = decision === 'succeeded' ? 'a success' : 'a final outcome'
  if (index === -1) return result(id, 'skip', `no answer the policy classifies as ${what}`, [])
  const stop = arrivals[index] as ObservedArrival
  const after = arrivals.slice(index + 1)
  if (after.length === 0) return result(id, 'pass', `attempt ${stop.n} got ${stop.outcome} (${decision} under the policy) and no attempt followed`, [stop.request_id])
  return result(
    id,
    'fail',
    `attempt ${stop.n} got ${stop.outcome}, which the policy treats as ${decision === 'succeeded' ? 'success' : 'final'}, yet ${after.length} more attempt(s) arrived`,
    [stop.request_id, ...after.map((a) => a.request_id)],
    { expected: `no attempt after ${stop.n}`, observed: `${arrivals.length} attempts` },
  )
}

export const checkStopsAfterSuccess = (arrivals: readonly ObservedArrival[]) => checkStop('stops_after_success', arrivals, 'succeeded')
export const checkStopsAfterFinal = (arrivals: readonly ObservedArrival[]) => checkStop('stops_after_final', arrivals, 'failed')

function locationPath(location: string): string | null {
  try {
    return new URL(location, 'http://receiver.invalid').pathname
  } catch {
    return null
  }
}

export function checkRedirects(arrivals: readonly ObservedArrival[], policy: Policy, lookup: PathLookup): SenderCheckResult {
  const redirects = arrivals.filter((a) => a.location !== null)
  if (redirects.length === 0) return result('redirects_not_followed', 'skip', 'no redirect was answered', [])
  if (policy.follow_redirects > 0) return result('redirects_not_followed', 'skip', `the policy follows up to ${policy.follow_redirects} redirect hop(s)`, [])
  const followed: number[] = []
  for (const redirect of redirects) {
    const path = locationPath(redirect.location as string)
    if (path === null) continue
    const next = arrivals[redirect.n]
    followed.push(...lookup(path, redirect.at, next ? next.at : null).map((r) => r.id))
  }
  const ids = redirects.map((r) => r.request_id)
  if (followed.length === 0) return result('redirects_not_followed', 'pass', `${redirects.length} redirect(s) answered, no request arrived at the Location`, ids)
  return result('redirects_not_followed', 'fail', `a request arrived at the redirect's Location (${redirects[0]?.location ?? ''}); the policy never follows redirects`, [...ids, ...followed], {
    expected: 'no request at the Location',
    observed: `${followed.length} request(s) there`,
  })
}

export function checkAttemptCount(arrivals: readonly ObservedArrival[], expected: readonly ExpectedAttempt[], policy: Policy, asOf: number): SenderCheckResult {
  const ids = arrivals.map((a) => a.request_id)
  const count = arrivals.length
  if (count > policy.max_attempts) {
    return result('attempt_count', 'fail', `${count} attempts arrived; the policy makes at most ${policy.max_attempts}`, ids, { expected: `≤ ${policy.max_attempts}`, observed: String(count) })
  }
  const ender = arrivals.find((a) => a.decision !== 'retry')
  if (ender) return result('attempt_count', 'skip', `attempt ${ender.n} (${ender.outcome}) ended the event before max attempts; see the stop checks`, ids)
  if (count === policy.max_attempts) return result('attempt_count', 'pass', `${count} attempts, as many as the policy makes when every one fails`, ids)
  const due = expected[count]
  if (due && asOf < due.at + due.tolerance_ms) {
    return result('attempt_count', 'pending', `${count} of ${policy.max_attempts} attempts so far; attempt ${count + 1} is due at ${iso(due.at)}`, ids)
  }
  return result('attempt_count', 'fail', `the sender stopped after ${count} attempt(s); the policy makes ${policy.max_attempts} when every one fails`, ids, {
    expected: String(policy.max_attempts),
    observed: String(count),
  })
}
