// How long a scenario run may take before it is stopped: on the scenario clock (what the
// scenario's own policies could possibly need) and in real time (so nothing hangs CI).
import type { Scenario } from '../../../shared/scenario'
import { resolvePolicy } from '../../../shared/sender'
import { expectedSchedule } from '../../../shared/sender'

const HOUR = 3_600_000

export interface RunLimits {
  /** Scenario clock ms after the start at which the run stops. */
  clockMs: number
  /** True when the scenario set it (max_duration_ms): reaching it is the plan, not a failure. */
  explicit: boolean
  /** Real ms after which the run stops whatever the clock says. */
  wallMs: number
}

/**
 * The longest a delivery can take under a policy when every attempt fails as slowly as possible:
 * the schedule plus a timeout per attempt. Retry-After can stretch a wait up to its bound.
 */
function worstCaseMs(policy: ReturnType<typeof resolvePolicy>): number {
  const schedule = expectedSchedule(policy)
  const last = schedule[schedule.length - 1]?.at_ms ?? 0
  const retryAfter = policy.retry_after.honour ? policy.retry_after.max_ms * (policy.max_attempts - 1) : 0
  return last + policy.max_attempts * policy.timeout_ms + retryAfter
}

export function runLimits(scenario: Scenario, wallLimitMs?: number): RunLimits {
  // The last moment something starts a delivery or an attempt: an event (or its delayed copy), or a panel action.
  const lastEvent = Math.max(
    0,
    ...scenario.events.map((e) => e.at_ms + Math.max(0, ...e.faults.map((f) => ('delay_ms' in f && typeof f.delay_ms === 'number' ? f.delay_ms : 0)))),
    ...scenario.actions.map((a) => a.at_ms),
  )
  const slowest = Math.max(0, ...scenario.subscriptions.map((s) => worstCaseMs(resolvePolicy(s.policy))))
  const explicit = scenario.max_duration_ms !== undefined
  const clockMs = scenario.max_duration_ms ?? lastEvent + slowest + HOUR
  let wallMs: number
  switch (scenario.clock.mode) {
    case 'virtual':
      // Virtual time costs no real time; ten minutes is far beyond any sane scenario.
      wallMs = 10 * 60_000
      break
    case 'scaled':
      wallMs = clockMs / scenario.clock.factor + 60_000
      break
    case 'real':
      wallMs = clockMs + 60_000
      break
    default: {
      const never: never = scenario.clock
      throw new Error(`unknown clock ${JSON.stringify(never)}`)
    }
  }
  // setTimeout caps at 2^31-1 ms.
  return { clockMs, explicit, wallMs: Math.min(wallLimitMs ?? wallMs, 2 ** 31 - 1) }
}
