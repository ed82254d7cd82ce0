import { describe, expect, it } from 'vitest'
import { fixtureContext } from '../../../shared/event-catalog'
import { shopifyEvents } from '../../../shared/event-catalog/shopify'
import { createSchemaJudge } from '../../../electron/engine/payload-schemas/judge'
import { closedPullRequest, githubDeliveryHeaders, githubExample, withoutHeadRepo } from '../../support/github-deliveries'

// Real GitHub deliveries (@octokit/webhooks-examples: payloads GitHub sent) held against GitHub's
// own webhooks OpenAPI; Shopify's by topic and API version; a provider that publishes nothing.

const body = (json: unknown) => Buffer.from(JSON.stringify(json))
const github = (event: string): [string, string][] => Object.entries(githubDeliveryHeaders(event))

describe('the schema verdict', () => {
  const judge = createSchemaJudge()

  it('a real pull_request.closed delivery is valid against GitHub\u2019s webhook pull-request-closed', async () => {
    const verdict = await judge.judge('github', github('pull_request'), body(closedPullRequest()), false)
    expect(verdict).toMatchObject({ verdict: 'valid', version: 'api.github.com', schema: 'pull-request-closed', problems: [], reason: null })
    expect(verdict.source).toMatch(/^GitHub webhooks OpenAPI \(@octokit\/openapi-webhooks \d+\.\d+\.\d+\)$/)
  })

  it('the same delivery without pull_request.head.repo is invalid at that pointer, with the schema\u2019s words', async () => {
    const verdict = await judge.judge('github', github('pull_request'), body(withoutHeadRepo()), false)
    expect(verdict.verdict).toBe('invalid')
    expect(verdict.problems[0]).toMatchObject({ pointer: '/pull_request/head/repo', expected: 'required', got: 'missing' })
    expect(verdict.problems[0]!.schemaSays).not.toBe('')
  })

  // Older examples miss fields GitHub's document has required since (auto_merge, has_discussions):
  // a verdict says so. These are current.
  it('current GitHub examples of other events are valid', async () => {
    for (const [event, action] of [['issues', 'opened'], ['ping', undefined], ['check_run', 'completed'], ['create', undefined]] as const) {
      const verdict = await judge.judge('github', github(event), body(githubExample(event, action)), false)
      expect({ event, verdict: verdict.verdict, problems: verdict.problems }).toEqual({ event, verdict: 'valid', problems: [] })
    }
  })

  it('a GitHub delivery without a header the document requires is invalid at that header; an unsigned one (a hook with no secret) is not', async () => {
    const headers = github('pull_request').filter(([name]) => name !== 'x-github-hook-id')
    const verdict = await judge.judge('github', headers, body(closedPullRequest()), false)
    expect(verdict.verdict).toBe('invalid')
    expect(verdict.problems).toEqual([{ pointer: 'header X-Github-Hook-Id', expected: 'required', got: 'missing', schemaSays: expect.any(String) }])
    expect(github('pull_request').some(([name]) => name.startsWith('x-hub-signature'))).toBe(false)
    expect((await judge.judge('github', github('pull_request'), body(closedPullRequest()), false)).verdict).toBe('valid')
  })

  it('a GitHub event the document does not describe, a body that is not JSON, a cut body: no schema, saying why', async () => {
    expect(await judge.judge('github', github('no_such_event'), body({}), false)).toMatchObject({ verdict: 'no-schema', reason: expect.stringContaining('no-such-event') })
    expect(await judge.judge('github', github('push'), Buffer.from('not json'), false)).toMatchObject({ verdict: 'no-schema', reason: 'the body is not JSON' })
    expect(await judge.judge('github', github('push'), body({}), true)).toMatchObject({ verdict: 'no-schema' })
  })

  it('Shopify: the topic at the version X-Shopify-API-Version names', async () => {
    const headers = (version: string): [string, string][] => [['X-Shopify-Topic', 'app/uninstalled'], ['X-Shopify-API-Version', version]]
    const payload = shopifyEvents.find((e) => e.type === 'app/uninstalled')!.payload(fixtureContext(Date.UTC(2026, 11, 1))) as Record<string, unknown>
    expect(await judge.judge('shopify', headers('2026-07'), body(payload), false)).toMatchObject({ verdict: 'valid', version: '2026-07', schema: 'app/uninstalled' })
    const invalid = await judge.judge('shopify', headers('2026-07'), body({ ...payload, id: 'not a number' }), false)
    expect(invalid).toMatchObject({ verdict: 'invalid', problems: [{ pointer: '/id', got: 'string "not a number"' }] })
    expect(await judge.judge('shopify', headers('2019-01'), body({}), false)).toMatchObject({ verdict: 'no-schema', reason: expect.stringContaining('2019-01') })
  })

  it('a provider that publishes no schema: no schema, in its own words', async () => {
    expect(await judge.judge('typeform', [], body({ event_id: 'x' }), false)).toMatchObject({ verdict: 'no-schema', reason: expect.stringContaining('Typeform') })
  })

  // A contract's operation, given for the request: the message the body fits best is the one named.
  const stock = (type: string) => ({ type: 'object', required: ['type', 'sku'], properties: { type: { const: type }, sku: { type: 'string' }, count: { type: 'integer' } } })
  const given = {
    key: 'digest\u0000onStock',
    source: 'Inventory 1.0.0 (AsyncAPI 3.0.0)',
    version: 'inventory.yaml',
    operation: 'onStock',
    dialect: 'draft-07' as const,
    nullableKeyword: false,
    messages: [
      { eventType: 'StockChanged', schema: stock('stock.changed') },
      { eventType: 'StockEmptied', schema: stock('stock.emptied') },
    ],
  }

  it('a body given its contract\u2019s operation is held against the message it fits best', async () => {
    const json = [['Content-Type', 'application/json']] as [string, string][]
    expect(await judge.judgeGiven(given, json, body({ type: 'stock.emptied', sku: 'A1' }), false)).toMatchObject({ verdict: 'valid', source: given.source, version: 'inventory.yaml', schema: 'onStock › StockEmptied', problems: [] })
    const invalid = await judge.judgeGiven(given, json, body({ type: 'stock.changed', sku: 'A1', count: 'many' }), false)
    expect(invalid).toMatchObject({ verdict: 'invalid', schema: 'onStock › StockChanged' })
    expect(invalid.problems.map((p) => p.pointer)).toEqual(['/count'])
    expect(await judge.judgeGiven(given, json, body({ sku: 'A1' }), true)).toMatchObject({ verdict: 'no-schema', schema: 'onStock', reason: expect.stringContaining('not kept whole') })
  })
})
