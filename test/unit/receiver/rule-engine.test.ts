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
    const step = engine.plan('ep', request)?.steps[0]
    return step?.type === 'reply' ? step.status : null
  })
}

describe('rule engine: counters across reloads', () => {
  it('an unchanged rule keeps counting after a reload', () => {
    const engine = createRuleEngine()
    engine.load(new Map([['ep', [{ id: 'r1', rule: failFirstTwo }]]]), [])
    expect(answers(engine, 1)).toEqual([503])
    engine.load(new Map([['ep', [{ id: 'r1', rule: failFirstTwo }]]]), [{ id: 'other', rule: parseRuleOrPreset({ preset: 'always-500' }) as Rule }])
    expect(answers(engine, 2)).toEqual([503, 200])
  })

  it('an edited rule starts afresh', () => {
    const engine = createRuleEngine()
    engine.load(new Map([['ep', [{ id: 'r1', rule: failFirstTwo }]]]), [])
    expect(answers(engine, 2)).toEqual([503, 503])
    const failFirstThree = parseRuleOrPreset({ preset: 'fail-first', n: 3 }) as Rule
    engine.load(new Map([['ep', [{ id: 'r1', rule: failFirstThree }]]]), [])
    expect(answers(engine, 4)).toEqual([503, 503, 503, 200])
  })
})
