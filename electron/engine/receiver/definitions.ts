// The receiver's definitions, its endpoints and rules: kept in the store, served from a compiled
// snapshot (routes by slug, the rule engine's rules) that each change rebuilds once checked and saved.
import type { Database } from 'better-sqlite3'
import type { Clock } from '../../../shared/clock'
import { DefinitionError, EditConflictError, ENDPOINT_PATH_PREFIX, endpointPath, parseEndpoint, type Endpoint, explainRule, type Rule, parseRuleOrPreset } from '../../../shared/receiver'
import { transactional, createEndpointStore, createRuleStore, type StoredRule } from '../store'
import { compileKeyExtractor, type DedupeTracker } from './dedupe'
import { refuseLoops, ruleTargets, type ReceiverSelf } from './forward-targets'
import type { LiveEndpoint } from './inspect'
import type { RuleEngine } from './rule-engine'

export interface RuleEntry extends StoredRule {
  explain: string
}

export type ReceiverDefinitions = ReturnType<typeof createDefinitions>

/** dedupe forgets an endpoint changed or gone; engine is loaded on every change; self is where this receiver answers (a forward target there would loop). */
export function createDefinitions({ db, clock, newId, dedupe, engine, self }: { db: Database; clock: Clock; newId: () => string; dedupe: DedupeTracker; engine: RuleEngine; self: () => ReceiverSelf }) {
  const endpointStore = createEndpointStore(db)
  const ruleStore = createRuleStore(db)
  let routes = new Map<string, LiveEndpoint>()

  function compile(): void {
    const endpoints = endpointStore.list()
    routes = new Map(endpoints.map((endpoint) => [endpoint.slug, { endpoint, key: endpoint.dedupe ? compileKeyExtractor(endpoint.dedupe) : null }]))
    const byEndpoint = new Map<string, { id: string; rule: Rule }[]>()
    const global: { id: string; rule: Rule }[] = []
    for (const stored of ruleStore.list()) {
      const entry = { id: stored.id, rule: stored.rule }
      if (stored.endpointId === null) global.push(entry)
      else byEndpoint.set(stored.endpointId, [...(byEndpoint.get(stored.endpointId) ?? []), entry])
    }
    engine.load(byEndpoint, global)
  }
  compile()

  const checkEndpointTargets = (endpoint: Endpoint) => refuseLoops((endpoint.forwardTo ?? []).map((url, i) => ({ path: endpoint.forwardTo?.length === 1 ? 'forward_to' : `forward_to[${i}]`, url })), self())
  const checkRuleTargets = (rule: Rule) => refuseLoops(ruleTargets(rule), self())

  const entry = (stored: StoredRule): RuleEntry => ({ ...stored, explain: explainRule(stored.rule) })
  const requireEndpoint = (id: string) => {
    const endpoint = endpointStore.get(id)
    if (!endpoint) throw new DefinitionError('endpointId', `no endpoint with id "${id}"`)
    return endpoint
  }

  const endpoints = {
    create(input: unknown): Endpoint {
      const settings = parseEndpoint(input)
      if (endpointStore.getBySlug(settings.slug)) throw new DefinitionError('slug', `an endpoint already answers at ${endpointPath(settings.slug)}`)
      const endpoint: Endpoint = { ...settings, id: settings.id ?? newId(), createdAt: clock.now() }
      checkEndpointTargets(endpoint)
      endpointStore.insert(endpoint)
      compile()
      return endpoint
    },
    update(id: string, input: unknown): Endpoint {
      const current = requireEndpoint(id)
      const settings = parseEndpoint(input)
      const other = endpointStore.getBySlug(settings.slug)
      if (other && other.id !== id) throw new DefinitionError('slug', `an endpoint already answers at ${endpointPath(settings.slug)}`)
      const endpoint: Endpoint = { ...settings, id, createdAt: current.createdAt }
      checkEndpointTargets(endpoint)
      endpointStore.update(endpoint)
      dedupe.forget(id)
      compile()
      return endpoint
    },
    delete(id: string): boolean {
      const removed = endpointStore.delete(id)
      if (removed) {
        dedupe.forget(id)
        compile()
      }
      return removed
    },
    get: (id: string): Endpoint | undefined => endpointStore.get(id),
    list: (): Endpoint[] => endpointStore.list(),
  }

  const rules = {
    /** A rule or a preset (`{preset: 'fail-first', n: 3}`); endpointId null = every endpoint. At position, or last. */
    add(endpointId: string | null, input: unknown, position?: number): RuleEntry {
      if (endpointId !== null) requireEndpoint(endpointId)
      const rule = parseRuleOrPreset(input)
      checkRuleTargets(rule)
      const siblings = ruleStore.listFor(endpointId)
      const stored: StoredRule = {
        id: rule.id ?? newId(),
        endpointId,
        position: siblings.length,
        enabled: rule.enabled,
        rule,
        createdAt: clock.now(),
        revision: 1,
      }
      if (ruleStore.get(stored.id)) throw new DefinitionError('id', `a rule with id "${stored.id}" already exists`)
      transactional(db, () => {
        ruleStore.insert(stored)
        if (position !== undefined) ruleStore.move(stored.id, position)
      })()
      compile()
      return entry(ruleStore.get(stored.id) ?? stored)
    },
    /** `revision`: the one the edit was made on; an older one than the store's is an EditConflictError. */
    update(id: string, input: unknown, revision?: number): RuleEntry {
      const current = ruleStore.get(id)
      if (!current) throw new DefinitionError('id', `no rule with id "${id}"`)
      const rule = parseRuleOrPreset(input)
      checkRuleTargets(rule)
      // The revision is checked in the update itself: another process may change the rule between this read and the write.
      if (!ruleStore.update(id, rule, revision)) {
        const now = ruleStore.get(id)
        if (!now) throw new DefinitionError('id', `no rule with id "${id}"`)
        throw new EditConflictError(now.rule.name ? `the rule "${now.rule.name}"` : `rule ${id}`, revision ?? now.revision, now.revision)
      }
      compile()
      return entry(ruleStore.get(id) ?? current)
    },
    delete(id: string): boolean {
      const removed = ruleStore.delete(id)
      if (removed) compile()
      return removed
    },
    reorder(id: string, position: number): boolean {
      const moved = ruleStore.move(id, position)
      if (moved) compile()
      return moved
    },
    enable(id: string, enabled: boolean): boolean {
      const changed = ruleStore.setEnabled(id, enabled)
      if (changed) compile()
      return changed
    },
    list: (endpointId?: string | null): RuleEntry[] => (endpointId === undefined ? ruleStore.list() : ruleStore.listFor(endpointId)).map(entry),
  }

  return {
    endpoints,
    rules,
    live: (slug: string): LiveEndpoint | undefined => routes.get(slug),
    route: (path: string): LiveEndpoint | null => {
      if (!path.startsWith(ENDPOINT_PATH_PREFIX)) return null
      const rest = path.slice(ENDPOINT_PATH_PREFIX.length)
      const slash = rest.indexOf('/')
      return routes.get(slash === -1 ? rest : rest.slice(0, slash)) ?? null
    },
    reload: () => {
      // An endpoint edited elsewhere may key its requests differently now: number duplicates afresh.
      const before = new Map([...routes.values()].map((r) => [r.endpoint.id, JSON.stringify(r.endpoint)]))
      compile()
      for (const [id, was] of before) {
        const now = [...routes.values()].find((r) => r.endpoint.id === id)
        if (!now || JSON.stringify(now.endpoint) !== was) dedupe.forget(id)
      }
    },
  }
}
