// Chooses what to answer: the first enabled rule (the endpoint's own first, then the rules for every
// endpoint of its workspace) whose matchers all match. A rule for every endpoint belongs to one
// workspace and never answers another's endpoints (docs/team.md, "Workspaces"); the lists are
// grouped by workspace once per load, so a request costs one map read more, not a filter.
// Matchers are checked in the order listed and stop at the first miss, so a counter (every-nth)
// or a random draw (probability) only advances for requests that passed the matchers before it —
// which keeps a seeded run reproducible.
import type { IncomingHttpHeaders } from 'node:http'
import { parseJsonPath, readJsonPath, type JsonPath } from '../../../shared/receiver'
import type { Matcher, Rule, Step } from '../../../shared/receiver'
import { JsonNumberText } from './json-document'
import { compileQueryMatcher } from './query-matcher'

export interface MatchInput {
  method: string
  path: string
  /** The raw query string, without '?' ('' when there is none). */
  query: string
  headers: IncomingHttpHeaders
  /** The body's fields the rules named (jsonPaths), as a sparse document. */
  json: () => unknown
  /** Arrival number of the request's dedupe key, null when it has none. */
  arrival: number | null
  dedupeKey: string | null
}

export interface Plan {
  ruleId: string | null
  steps: Step[]
}

type CompiledMatcher = (input: MatchInput) => boolean

interface CompiledRule {
  id: string
  rule: Rule
  matchers: CompiledMatcher[]
  /** Sequence arrivals for requests without a dedupe key: counted per rule. */
  keylessCount: number
  /** Body fields its matchers read. */
  paths: JsonPath[]
}

const matcherPaths = (rule: Rule): JsonPath[] =>
  rule.matchers.flatMap((m) => (m.type === 'event-type' ? [parseJsonPath(m.path ?? 'event_type')] : []))

/** mulberry32: tiny, fast, and the same sequence for the same seed on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function compileMatcher(m: Matcher): CompiledMatcher {
  switch (m.type) {
    case 'method': {
      const method = m.method.toUpperCase()
      return (input) => input.method === method
    }
    case 'path': {
      const path = m.path
      const base = path.endsWith('/') ? path : `${path}/`
      return m.prefix ? (input) => input.path === path || input.path.startsWith(base) : (input) => input.path === path
    }
    case 'header': {
      const name = m.name.toLowerCase()
      const expected = m.value
      return (input) => {
        const value = input.headers[name]
        if (value === undefined) return false
        if (expected === undefined) return true
        return Array.isArray(value) ? value.includes(expected) : value === expected
      }
    }
    case 'query': {
      const matches = compileQueryMatcher(m)
      return (input) => matches(input.query)
    }
    case 'event-type': {
      const path: JsonPath = parseJsonPath(m.path ?? 'event_type')
      const values = new Set(Array.isArray(m.value) ? m.value : [m.value])
      return (input) => {
        const value = readJsonPath(input.json(), path)
        // A number field (Discord's interaction `type`) matches the value written as its text.
        if (value instanceof JsonNumberText) return values.has(value.text)
        return (typeof value === 'string' || typeof value === 'number') && values.has(String(value))
      }
    }
    case 'nth-arrival': {
      const ns = new Set(Array.isArray(m.n) ? m.n : [m.n])
      return (input) => input.arrival !== null && ns.has(input.arrival)
    }
    case 'every-nth': {
      let seen = 0
      const { n, offset = 0 } = m
      return () => {
        seen += 1
        return seen > offset && (seen - offset) % n === 0
      }
    }
    case 'probability': {
      const random = seededRandom(m.seed)
      return () => random() < m.p
    }
    default: {
      const never: never = m
      return never
    }
  }
}

export type RuleList = readonly { id: string; rule: Rule }[]

export interface RuleEngine {
  /**
   * Replace the rule set: each endpoint's rules by endpoint id, the rules for every endpoint by
   * workspace id. A rule whose definition is unchanged keeps its counters and random
   * draws (a reload because another rule changed, here or in another process on the data
   * folder, must not restart "fail the first 2" half way); a new or edited rule starts afresh.
   */
  load(endpointRules: ReadonlyMap<string, RuleList>, everyEndpointRules: ReadonlyMap<string, RuleList>): void
  /** The plan for a request at the endpoint, which is in `workspace` (endpointId null: the workspace's rules for every endpoint only). */
  plan(endpointId: string | null, workspace: string, input: MatchInput): Plan | null
  /** The body fields an endpoint's rules (its own and its workspace's for every endpoint) read. */
  jsonPaths(endpointId: string | null, workspace: string): readonly JsonPath[]
  /** Whether any enabled rule of the endpoint (its own or its workspace's for every endpoint) may forward to an app. */
  forwards(endpointId: string, workspace: string): boolean
}

const NONE: readonly CompiledRule[] = Object.freeze([])

const isForwardStep = (step: Step) => step.type === 'forward' || step.type === 'forward-copy'

function ruleForwards(rule: Rule): boolean {
  if (rule.steps?.some(isForwardStep)) return true
  return rule.sequence?.items.some((steps) => steps.some(isForwardStep)) ?? false
}

export function createRuleEngine(): RuleEngine {
  let byEndpoint = new Map<string, CompiledRule[]>()
  let everyEndpoint = new Map<string, CompiledRule[]>()
  // What jsonPaths answers, per workspace and endpoint, until the next load: asked on every request.
  let pathsOf = new Map<string, Map<string | null, readonly JsonPath[]>>()
  const listsOf = (endpointId: string | null, workspace: string): readonly (readonly CompiledRule[])[] => {
    const every = everyEndpoint.get(workspace) ?? NONE
    return endpointId === null ? [every] : [byEndpoint.get(endpointId) ?? NONE, every]
  }
  // The compiled rules of the last load by id, with the definition they were compiled from.
  let compiled = new Map<string, { definition: string; rule: CompiledRule }>()
  const compile = (list: RuleList, next: typeof compiled): CompiledRule[] =>
    list
      .filter((r) => r.rule.enabled)
      .map((r) => {
        const definition = JSON.stringify(r.rule)
        const kept = compiled.get(r.id)
        const rule = kept?.definition === definition ? kept.rule : { id: r.id, rule: r.rule, matchers: r.rule.matchers.map(compileMatcher), keylessCount: 0, paths: matcherPaths(r.rule) }
        next.set(r.id, { definition, rule })
        return rule
      })

  function tryRule(rule: CompiledRule, input: MatchInput): Step[] | null {
    for (const matcher of rule.matchers) if (!matcher(input)) return null
    const { sequence, steps } = rule.rule
    if (!sequence) return steps ?? null
    let n: number
    if (input.arrival !== null) n = input.arrival
    else n = ++rule.keylessCount
    const item = sequence.items[n - 1]
    if (item) return item
    return sequence.then === 'repeat-last' ? (sequence.items[sequence.items.length - 1] ?? null) : null
  }

  return {
    load(endpointRules, everyEndpointRules) {
      const next: typeof compiled = new Map()
      byEndpoint = new Map([...endpointRules].map(([endpointId, list]) => [endpointId, compile(list, next)]))
      everyEndpoint = new Map([...everyEndpointRules].map(([workspace, list]) => [workspace, compile(list, next)]))
      compiled = next
      pathsOf = new Map()
    },
    plan(endpointId, workspace, input) {
      for (const list of listsOf(endpointId, workspace)) {
        for (const rule of list) {
          const steps = tryRule(rule, input)
          if (steps) return { ruleId: rule.id, steps }
        }
      }
      return null
    },
    forwards(endpointId, workspace) {
      return listsOf(endpointId, workspace).some((list) => list.some((rule) => ruleForwards(rule.rule)))
    },
    jsonPaths(endpointId, workspace) {
      let inWorkspace = pathsOf.get(workspace)
      if (!inWorkspace) pathsOf.set(workspace, (inWorkspace = new Map()))
      let paths = inWorkspace.get(endpointId)
      if (!paths) {
        paths = Object.freeze(listsOf(endpointId, workspace).flatMap((list) => list.flatMap((rule) => rule.paths)))
        inWorkspace.set(endpointId, paths)
      }
      return paths
    },
  }
}
