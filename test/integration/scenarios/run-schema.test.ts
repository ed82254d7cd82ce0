// A scenario's `expect.schema: "valid"` and an arrival's `schema`, judged on a real engine: GitHub
// deliveries signed as GitHub signs them arrive at an endpoint that verifies GitHub's scheme, the
// receiver holds each body against GitHub's published webhooks document, and the run's report
// carries each arrival's verdict. The catalog's pull_request.opened matches; a body without the
// pull request it names fails, with the place and what the schema wanted.
import { describe, expect, it } from 'vitest'
import { validateScenario } from '../../../shared/scenario'
import { runScenario } from '../../../electron/engine/scenarios/run'

function run(doc: Record<string, unknown>): ReturnType<typeof runScenario> {
  const result = validateScenario({ version: 1, name: 'schema run', clock: { mode: 'virtual' }, ...doc })
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
  return runScenario(result.scenario)
}

const github = {
  endpoints: [{ slug: 'gh', scheme: 'github', secrets: ['github-example-secret'] }],
  subscriptions: [{ id: 'github', endpoint: 'gh', provider: 'github' }],
}

describe('expect.schema on a real run', () => {
  it("passes when every judged arrival matches GitHub's schema, and says each arrival's verdict", async () => {
    const report = await run({
      ...github,
      events: [{ type: 'pull_request.opened' }, { type: 'issues.opened' }],
      expect: { schema: 'valid', endpoints: [{ endpoint: 'gh', arrivals: [{ schema: 'valid' }, { schema: 'valid' }] }] },
    })
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.ok).toBe(true)
    expect(report.arrivals?.map((a) => a.schema?.verdict)).toEqual(['valid', 'valid'])
    expect(report.expectations.find((e) => e.path === 'expect.schema')).toMatchObject({ ok: true, actual: { judged: 2, invalid: [] } })
  })

  it('fails on a body that misses what the schema requires, naming the request and the place', async () => {
    const report = await run({
      ...github,
      events: [{ type: 'pull_request.opened', payload: { action: 'opened', number: 1 } }],
      expect: { schema: 'valid', endpoints: [{ endpoint: 'gh', arrivals: [{ schema: 'invalid' }] }] },
    })
    expect(report.ok).toBe(false)
    const [arrival] = report.arrivals ?? []
    expect(arrival?.schema).toMatchObject({ verdict: 'invalid', pointer: '/pull_request', expected: 'required' })
    const verdict = report.expectations.find((e) => e.path === 'expect.schema')
    expect(verdict?.ok).toBe(false)
    expect(verdict?.message).toBe(`1 of 1 judged requests do not match their schema; the first, request ${arrival?.request_id} at gh, is invalid at /pull_request (expected required, came missing)`)
    expect(report.expectations.find((e) => e.path.endsWith('arrivals[0].schema'))?.ok).toBe(true)
  })

  it('fails when nothing was judged: an endpoint that verifies no provider scheme gives no verdict', async () => {
    const report = await run({
      endpoints: [{ slug: 'plain' }],
      subscriptions: [{ id: 'a', endpoint: 'plain', policy: 'github' }],
      events: [{ type: 'order.created', payload: { n: 1 } }],
      expect: { schema: 'valid' },
    })
    expect(report.ok).toBe(false)
    expect(report.arrivals?.[0]?.schema).toBeNull()
    expect(report.expectations.find((e) => e.path === 'expect.schema')?.message).toMatch(/^no request that arrived was held against a schema \(1 arrived/)
  })
})
