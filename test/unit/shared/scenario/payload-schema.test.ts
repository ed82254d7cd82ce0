// expect.schema judged from a report's arrivals alone (pure): what passes, what fails and how it is
// said, and that a scenario without it gets no such check.
import { describe, expect, it } from 'vitest'
import { evaluateSchemaExpectation, validateScenario, type ReportArrival, type Scenario } from '../../../../shared/scenario'

function scenario(expectSchema: boolean): Scenario {
  const result = validateScenario({
    version: 1,
    name: 'x',
    endpoints: [{ slug: 'gh', scheme: 'github', secrets: ['s'] }],
    subscriptions: [{ id: 'github', endpoint: 'gh', provider: 'github' }],
    events: [{ type: 'pull_request.opened' }],
    ...(expectSchema ? { expect: { schema: 'valid' } } : { smoke: true }),
  })
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.scenario
}

const arrival = (id: number, schema: ReportArrival['schema']): ReportArrival => ({ endpoint: 'gh', request_id: id, run_ms: 0, headers: {}, body: {}, signature: 'ok', duplicate: 1, schema })

describe('evaluateSchemaExpectation', () => {
  it('passes when every judged arrival is valid, leaving out those with no schema', () => {
    const [result] = evaluateSchemaExpectation(scenario(true), [arrival(1, { verdict: 'valid', pointer: null, expected: null, got: null }), arrival(2, { verdict: 'no-schema', pointer: null, expected: null, got: null })])
    expect(result).toMatchObject({ path: 'expect.schema', ok: true, actual: { judged: 1, invalid: [] }, message: '' })
  })

  it('fails on an invalid arrival, naming it and the place', () => {
    const [result] = evaluateSchemaExpectation(scenario(true), [
      arrival(1, { verdict: 'valid', pointer: null, expected: null, got: null }),
      arrival(7, { verdict: 'invalid', pointer: '/pull_request/head/repo', expected: 'required', got: 'missing' }),
    ])
    expect(result?.ok).toBe(false)
    expect(result?.actual).toEqual({ judged: 2, invalid: [7] })
    expect(result?.message).toBe("1 of 2 judged requests do not match their schema; the first, request 7 at gh, is invalid at /pull_request/head/repo (expected required, came missing)")
  })

  it('fails when nothing was judged, and is absent from a scenario that does not ask for it', () => {
    const [result] = evaluateSchemaExpectation(scenario(true), [arrival(1, null)])
    expect(result?.ok).toBe(false)
    expect(result?.message).toMatch(/^no request that arrived was held against a schema \(1 arrived/)
    expect(evaluateSchemaExpectation(scenario(false), [arrival(1, null)])).toEqual([])
  })
})
