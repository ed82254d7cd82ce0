import { describe, expect, it } from 'vitest'
import { validateScenario } from '../../../shared/scenario'
import type { Scenario } from '../../../shared/scenario'
import { runLimits } from '../../../electron/engine/scenarios/limits'

const MIN = 60_000
const HOUR = 60 * MIN

function scenario(doc: Record<string, unknown>): Scenario {
  const result = validateScenario({ version: 1, name: 'limits', events: [{ type: 't', payload: {} }], ...doc })
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
  return result.scenario
}

describe('run limits', () => {
  it('covers seed A\'s whole schedule with every attempt timing out, plus an hour', () => {
    const limits = runLimits(scenario({ subscriptions: [{ id: 'a', url: 'http://127.0.0.1:1/x', policy: 'pandoktorek' }] }))
    expect(limits).toEqual({ clockMs: 870 * MIN + 10 * 10_000 + HOUR, explicit: false, wallMs: 10 * MIN })
  })

  it('starts from the last event (and its delayed duplicate), and takes the slowest subscription', () => {
    const limits = runLimits(
      scenario({
        subscriptions: [
          { id: 'a', url: 'http://127.0.0.1:1/x', policy: 'csku' },
          { id: 'b', url: 'http://127.0.0.1:1/y', policy: 'github' },
        ],
        events: [
          { type: 't', payload: {}, at_ms: 1000 },
          { type: 't', payload: {}, at_ms: 500, faults: [{ type: 'duplicate', mode: 'delayed', delay_ms: 9000 }] },
        ],
      }),
    )
    // csku: 3 × 30 s of waits + 4 × 5 s timeouts; github: one 10 s attempt.
    expect(limits.clockMs).toBe(9500 + 90_000 + 20_000 + HOUR)
  })

  it('uses an explicit max_duration_ms as the plan, and scales the real-time bound with the clock', () => {
    const base = { subscriptions: [{ id: 'a', url: 'http://127.0.0.1:1/x', policy: 'csku' }], max_duration_ms: 600_000 }
    expect(runLimits(scenario({ ...base, clock: { mode: 'scaled', factor: 100 } }))).toEqual({ clockMs: 600_000, explicit: true, wallMs: 6000 + 60_000 })
    expect(runLimits(scenario({ ...base, clock: { mode: 'real' } }))).toEqual({ clockMs: 600_000, explicit: true, wallMs: 660_000 })
    expect(runLimits(scenario(base), 1234).wallMs).toBe(1234)
  })

  it('allows for Retry-After waits when a policy honours them', () => {
    const limits = runLimits(scenario({ subscriptions: [{ id: 'a', url: 'http://127.0.0.1:1/x', policy: 'custom' }] }))
    // custom: 5 attempts, Retry-After honoured up to 6 h per wait.
    expect(limits.clockMs).toBeGreaterThan(4 * 6 * HOUR)
  })
})
