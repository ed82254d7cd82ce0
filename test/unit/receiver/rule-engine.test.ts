import { describe, expect, it } from 'vitest'
import { createRuleEngine, type MatchInput } from '../../../electron/engine/receiver/rule-engine'
import { parseRuleOrPreset } from '../../../shared/receiver'
import type { Rule } from '../../../shared/receiver'

// A reload (another rule changed, here or in another process on the data folder) keeps the
// counters of rules whose definition did not change: "fail the first 2" fails two requests, not
// two after every reload. An edited rule starts afresh.

const request: MatchInput = { method: 'POST', path: '/h/shop', query: '', headers: {}, json: () => ({}), arrival: null, dedupeKey: null }
const failFirstTwo = parseRuleOrPreset({ preset: 'fail-first', n: 2 }) as Rule

/** The status each of the next n requests is answered with. */
function answers(engine: ReturnType<typeof createRuleEngine>, n: number): Array<number | null> {
  return Array.from({ length: n }, () => {
    const step = engine.plan('ep', 'default', request)?.steps[0]
    return step?.type === 'reply' ? step.status : null
  })
}

describe('rule engine: counters across reloads', () => {
  it('an unchanged rule keeps counting after a reload', () => {
    const engine = createRuleEngine()
    engine.load(new Map([['ep', [{ id: 'r1', rule: failFirstTwo }]]]), new Map())
    expect(answers(engine, 1)).toEqual([503])
    engine.load(new Map([['ep', [{ id: 'r1', rule: failFirstTwo }]]]), new Map([['default', [{ id: 'other', rule: parseRuleOrPreset({ preset: 'always-500' }) as Rule }]]]))
    expect(answers(engine, 2)).toEqual([503, 200])
  })

  it('an edited rule starts afresh', () => {
    const engine = createRuleEngine()
    engine.load(new Map([['ep', [{ id: 'r1', rule: failFirstTwo }]]]), new Map())
    expect(answers(engine, 2)).toEqual([503, 503])
    const failFirstThree = parseRuleOrPreset({ preset: 'fail-first', n: 3 }) as Rule
    engine.load(new Map([['ep', [{ id: 'r1', rule: failFirstThree }]]]), new Map())
    expect(answers(engine, 4)).toEqual([503, 503, 503, 200])
  })
})

describe('rule engine: rules for every endpoint, per workspace', () => {
  const reply = (status: number): Rule => parseRuleOrPreset({ steps: [{ type: 'reply', status }] }) as Rule
  const forward: Rule = parseRuleOrPreset({ steps: [{ type: 'forward', url: 'http://127.0.0.1:9/app' }] }) as Rule
  const readsBody: Rule = parseRuleOrPreset({ matchers: [{ type: 'event-type', path: 'kind', value: 'x' }], steps: [{ type: 'reply', status: 202 }] }) as Rule
  const statusOf = (plan: ReturnType<ReturnType<typeof createRuleEngine>['plan']>) => (plan?.steps[0]?.type === 'reply' ? plan.steps[0].status : null)

  it("answers an endpoint by its own rules, then its workspace's for every endpoint, never another workspace's", () => {
    const engine = createRuleEngine()
    engine.load(
      new Map([['pay', [{ id: 'own', rule: { ...reply(201), matchers: [{ type: 'method', method: 'PUT' }] } }]]]),
      new Map([
        ['default', [{ id: 'every-default', rule: reply(500) }]],
        ['ws_pay', [{ id: 'every-pay', rule: reply(503) }]],
      ]),
    )
    expect(statusOf(engine.plan('shop', 'default', request))).toBe(500)
    expect(statusOf(engine.plan('pay', 'ws_pay', request))).toBe(503)
    expect(statusOf(engine.plan('pay', 'ws_pay', { ...request, method: 'PUT' }))).toBe(201)
    // A workspace with no rule for every endpoint: its endpoints answer by their own alone.
    expect(engine.plan('other', 'ws_none', request)).toBeNull()
    // No endpoint: its workspace's rules for every endpoint only.
    expect(engine.plan(null, 'default', request)?.ruleId).toBe('every-default')
  })

  it("reads the body fields and forwards by the endpoint's workspace's rules only", () => {
    const engine = createRuleEngine()
    engine.load(new Map(), new Map([['ws_pay', [{ id: 'fwd', rule: forward }, { id: 'body', rule: readsBody }]]]))
    expect(engine.forwards('pay', 'ws_pay')).toBe(true)
    expect(engine.forwards('shop', 'default')).toBe(false)
    expect(engine.jsonPaths('pay', 'ws_pay')).toHaveLength(1)
    expect(engine.jsonPaths('shop', 'default')).toEqual([])
    // Asked again after a load that moved the rule: the answers follow it.
    engine.load(new Map(), new Map([['default', [{ id: 'body', rule: readsBody }]]]))
    expect(engine.jsonPaths('pay', 'ws_pay')).toEqual([])
    expect(engine.jsonPaths('shop', 'default')).toHaveLength(1)
  })

  it('keeps the counters of a rule for every endpoint across a reload, per workspace', () => {
    const engine = createRuleEngine()
    const everyPay = new Map([['ws_pay', [{ id: 'ff', rule: failFirstTwo }]]])
    engine.load(new Map(), everyPay)
    expect(statusOf(engine.plan('pay', 'ws_pay', request))).toBe(503)
    engine.load(new Map(), new Map([...everyPay, ['default', [{ id: 'x', rule: reply(500) }]]]))
    expect([statusOf(engine.plan('pay', 'ws_pay', request)), statusOf(engine.plan('pay', 'ws_pay', request))]).toEqual([503, 200])
    expect(statusOf(engine.plan('shop', 'default', request))).toBe(500)
  })
})
