// Forward mode in scenario files: validation of `app` and `expect.forwards`, the run-time app URL
// moved into every forward target, and the verdicts on a report's legs (expected vs actual, path).
import { describe, expect, it } from 'vitest'
import { evaluateForwards, formatProblem, validateScenario } from '../../../shared/scenario'
import type { ReportForwardLeg } from '../../../shared/scenario'
import { retargetScenario } from '../../../electron/engine/scenarios/forward-run'

function doc(extra: Record<string, unknown> = {}, forwards: unknown[] = [{ requests: 2 }]): Record<string, unknown> {
  return {
    version: 1,
    name: 'through the app',
    app: 'http://127.0.0.1:3000',
    endpoints: [{ slug: 'in', forward_to: 'http://127.0.0.1:3000/hooks', rules: [{ preset: 'fail-then-forward', n: 2, url: 'http://127.0.0.1:3000/hooks/a' }] }],
    subscriptions: [{ id: 's', endpoint: 'in', policy: 'pandoktorek' }],
    events: [{ id: 'ev', type: 't', payload: {} }],
    expect: { forwards },
    ...extra,
  }
}

function parse(input: Record<string, unknown>) {
  const result = validateScenario(input)
  return result.ok ? { scenario: result.scenario, problems: [] } : { scenario: null, problems: result.problems.map(formatProblem) }
}

const leg = (over: Partial<ReportForwardLeg>): ReportForwardLeg => ({ request_id: 1, endpoint: 'in', event: 'ev', kind: 'forward', target_url: 'http://127.0.0.1:3000/hooks', url: 'http://127.0.0.1:3000/hooks', run_ms: 0, status: 200, outcome: 'answered', latency_ms: 5, error: null, ...over })

describe('forward mode in scenarios', () => {
  it('refuses what cannot be judged, naming the path', () => {
    expect(parse(doc({ app: 'ftp://x' })).problems).toEqual([expect.stringMatching(/^app: a forward target must be http:\/\/ or https:\/\//)])
    const { app: _app, ...noApp } = doc()
    expect(parse(noApp).problems).toEqual([expect.stringMatching(/^expect\.forwards\[0\]: name the forward "target", or set the scenario's "app"/)])
    expect(parse(doc({}, [{ event: 'nope', requests: 1, statuses: [200, 200] }])).problems).toEqual([
      'expect.forwards[0].event: unknown event "nope" (events: ev)',
      'expect.forwards[0].statuses: lists 2 requests but "requests" is 1',
    ])
    expect(parse(doc({}, [{ latency_ms: { min: 9, max: 1 } }])).problems).toEqual(['expect.forwards[0].latency_ms: min 9 is above max 1'])
  })

  it('moves the run-time app URL into every forward target under the file\'s app', () => {
    const { scenario } = parse(doc({}, [{ target: 'http://127.0.0.1:3000/hooks/a', requests: 1 }]))
    if (!scenario) throw new Error('invalid')
    const moved = retargetScenario(scenario, 'http://127.0.0.1:4567/')
    expect(moved.app).toBe('http://127.0.0.1:4567')
    expect(moved.endpoints[0]?.forward_to).toBe('http://127.0.0.1:4567/hooks')
    expect(moved.endpoints[0]?.rules[0]?.sequence?.items.at(-1)).toEqual([{ type: 'forward', url: 'http://127.0.0.1:4567/hooks/a' }])
    expect(moved.expect.forwards[0]?.target).toBe('http://127.0.0.1:4567/hooks/a')
  })

  it('judges the legs to the app: counts, statuses, outcomes and latency bounds, per event', () => {
    const legs = [leg({ status: 500, latency_ms: 40 }), leg({ status: 200, latency_ms: 900 }), leg({ event: null, target_url: 'http://elsewhere:1/', status: 200 })]
    const results = evaluateForwards(
      [
        { event: 'ev', requests: 2, statuses: [200, 200], latency_ms: { max: 500 } },
        { target: 'http://elsewhere:1/', outcomes: ['refused'] },
      ],
      'http://127.0.0.1:3000',
      legs,
    )
    expect(results.map((r) => [r.path, r.ok, r.expected, r.actual, r.message])).toEqual([
      ['expect.forwards[0].requests', true, 2, 2, ''],
      ['expect.forwards[0].statuses', false, [200, 200], [500, 200], 'request 1 has status 500, expected 200'],
      ['expect.forwards[0].latency_ms', false, { max: 500 }, [40, 900], 'request 2 took 900 ms, expected ≤ 500 ms'],
      ['expect.forwards[1].outcomes', false, ['refused'], ['answered'], 'request 1 has outcome "answered", expected "refused"'],
    ])
    expect(results[0]?.subject).toEqual({ kind: 'forward', target: 'http://127.0.0.1:3000', endpoint: null, event: 'ev', field: 'requests' })
  })
})
