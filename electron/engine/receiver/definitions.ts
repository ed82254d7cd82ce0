// The receiver's definitions, its endpoints and rules: kept in the store, served from a compiled
// snapshot (routes by slug, the rule engine's rules) that each change rebuilds once checked and saved.
import type { Clock } from '../../../shared/clock'
import { DefinitionError, EditConflictError, ENDPOINT_PATH_PREFIX, endpointPath, parseEndpoint, type Endpoint, explainRule, type Rule, parseRuleOrPreset } from '../../../shared/receiver'
import { createEndpointStore, createRuleStore, DEFAULT_WORKSPACE, type SecretBox, type SqlEngine, type StoredRule } from '../store'
import { compileKeyExtractor, type DedupeTracker } from './dedupe'
import { refuseLoops, ruleTargets, type ReceiverSelf } from './forward-targets'
import type { LiveEndpoint } from './inspect'
import type { RuleEngine } from './rule-engine'

export interface RuleEntry extends StoredRule {
  explain: string
}

export type ReceiverDefinitions = Awaited<ReturnType<typeof createDefinitions>>

export interface DefinitionsOptions {
  /** The store the definitions live in (either engine), and the box that seals their secrets. */
  store: SqlEngine
  secrets: SecretBox
  clock: Clock
  newId: () => string
  /** Forgets an endpoint changed or gone. */
  dedupe: DedupeTracker
  /** Loaded on every change. */
  engine: RuleEngine
  /** Where this receiver answers (a forward target there would loop). */
  self: () => ReceiverSelf
}

/**
 * The definitions, read once from the store before it resolves. Changes are awaited writes, one
 * at a time in this process; each one rebuilds the snapshot the request path reads synchronously
 * (routes by slug, the rule engine's rules), and the lists answer from that snapshot too.
 */
export async function createDefinitions({ store, secrets, clock, newId, dedupe, engine, self }: DefinitionsOptions) {
  const endpointStore = createEndpointStore(store, secrets)
  const ruleStore = createRuleStore(store)
  let routes = new Map<string, LiveEndpoint>()
  let endpointList: Endpoint[] = []
  let ruleList: StoredRule[] = []

  // Reads may finish out of order on PostgreSQL (a pool): only a read newer than the one applied is applied.
  let reads = 0
  let applied = 0
  async function compile(): Promise<void> {
    const ticket = ++reads
    const [owned, rules] = await Promise.all([endpointStore.listInWorkspaces(), ruleStore.list()])
    if (ticket < applied) return
    applied = ticket
    endpointList = owned.map((o) => o.endpoint)
    ruleList = rules
    routes = new Map(owned.map(({ endpoint, workspaceId }) => [endpoint.slug, { endpoint, key: endpoint.dedupe ? compileKeyExtractor(endpoint.dedupe) : null, workspace: workspaceId }]))
    // The rules for every endpoint grouped by workspace here, once per change: a request reads its workspace's list.
    const byEndpoint = new Map<string, { id: string; rule: Rule }[]>()
    const everyEndpoint = new Map<string, { id: string; rule: Rule }[]>()
    for (const stored of rules) {
      const entry = { id: stored.id, rule: stored.rule }
      const [group, key] = stored.endpointId === null ? [everyEndpoint, stored.workspaceId] : [byEndpoint, stored.endpointId]
      group.set(key, [...(group.get(key) ?? []), entry])
    }
    engine.load(byEndpoint, everyEndpoint)
  }
  await compile()

  // One change at a time in this process: a check (a slug taken, a rule's id) and its write are not split by another change here.
  let turn: Promise<unknown> = Promise.resolve()
  const change = <R>(work: () => Promise<R>): Promise<R> => {
    const next = turn.then(work, work)
    turn = next.catch(() => undefined)
    return next
  }

  const checkEndpointTargets = (endpoint: Endpoint) => refuseLoops((endpoint.forwardTo ?? []).map((url, i) => ({ path: endpoint.forwardTo?.length === 1 ? 'forward_to' : `forward_to[${i}]`, url })), self())
  const checkRuleTargets = (rule: Rule) => refuseLoops(ruleTargets(rule), self())

  const entry = (stored: StoredRule): RuleEntry => ({ ...stored, explain: explainRule(stored.rule) })
  const requireEndpoint = async (id: string) => {
    const endpoint = await endpointStore.get(id)
    if (!endpoint) throw new DefinitionError('endpointId', `no endpoint with id "${id}"`)
    return endpoint
  }

  const endpoints = {
    /** In `workspaceId` (a served Hookloop with accounts: the caller's; default `default`). */
    create: (input: unknown, workspaceId?: string): Promise<Endpoint> =>
      change(async () => {
        const settings = parseEndpoint(input)
        if (await endpointStore.getBySlug(settings.slug)) throw new DefinitionError('slug', `an endpoint already answers at ${endpointPath(settings.slug)}`)
        const endpoint: Endpoint = { ...settings, id: settings.id ?? newId(), createdAt: clock.now() }
        checkEndpointTargets(endpoint)
        await endpointStore.insert(endpoint, workspaceId)
        await compile()
        return endpoint
      }),
    update: (id: string, input: unknown): Promise<Endpoint> =>
      change(async () => {
        const current = await requireEndpoint(id)
        const settings = parseEndpoint(input)
        const other = await endpointStore.getBySlug(settings.slug)
        if (other && other.id !== id) throw new DefinitionError('slug', `an endpoint already answers at ${endpointPath(settings.slug)}`)
        const endpoint: Endpoint = { ...settings, id, createdAt: current.createdAt }
        checkEndpointTargets(endpoint)
        await endpointStore.update(endpoint)
        dedupe.forget(id)
        await compile()
        return endpoint
      }),
    delete: (id: string): Promise<boolean> =>
      change(async () => {
        const removed = await endpointStore.delete(id)
        if (removed) {
          dedupe.forget(id)
          await compile()
        }
        return removed
      }),
    /** From the snapshot: what the receiver answers by. */
    get: (id: string): Endpoint | undefined => endpointList.find((e) => e.id === id),
    list: (): Endpoint[] => [...endpointList],
  }

  const rules = {
    /**
     * A rule or a preset (`{preset: 'fail-first', n: 3}`); endpointId null = every endpoint of
     * `workspaceId` (a served Hookloop with accounts: the caller's; default `default`), whose
     * endpoints alone it acts on. At position among its siblings, or last.
     */
    add: (endpointId: string | null, input: unknown, at: { position?: number; workspaceId?: string } = {}): Promise<RuleEntry> =>
      change(async () => {
        if (endpointId !== null) await requireEndpoint(endpointId)
        const rule = parseRuleOrPreset(input)
        checkRuleTargets(rule)
        const workspaceId = at.workspaceId ?? DEFAULT_WORKSPACE
        const siblings = await ruleStore.listFor(endpointId, workspaceId)
        const stored: StoredRule = {
          id: rule.id ?? newId(),
          endpointId,
          position: siblings.length,
          enabled: rule.enabled,
          rule,
          createdAt: clock.now(),
          revision: 1,
          // An endpoint's rule is its endpoint's workspace's, whatever is given: the store writes it from the endpoint's row.
          workspaceId,
        }
        if (await ruleStore.get(stored.id)) throw new DefinitionError('id', `a rule with id "${stored.id}" already exists`)
        await ruleStore.insert(stored, at.position)
        await compile()
        return entry((await ruleStore.get(stored.id)) ?? stored)
      }),
    /** `revision`: the one the edit was made on; an older one than the store's is an EditConflictError. */
    update: (id: string, input: unknown, revision?: number): Promise<RuleEntry> =>
      change(async () => {
        const current = await ruleStore.get(id)
        if (!current) throw new DefinitionError('id', `no rule with id "${id}"`)
        const rule = parseRuleOrPreset(input)
        checkRuleTargets(rule)
        // The revision is checked in the update itself: another process may change the rule between this read and the write.
        if (!(await ruleStore.update(id, rule, revision))) {
          const now = await ruleStore.get(id)
          if (!now) throw new DefinitionError('id', `no rule with id "${id}"`)
          throw new EditConflictError(now.rule.name ? `the rule "${now.rule.name}"` : `rule ${id}`, revision ?? now.revision, now.revision)
        }
        await compile()
        return entry((await ruleStore.get(id)) ?? current)
      }),
    delete: (id: string): Promise<boolean> =>
      change(async () => {
        const removed = await ruleStore.delete(id)
        if (removed) await compile()
        return removed
      }),
    reorder: (id: string, position: number): Promise<boolean> =>
      change(async () => {
        const moved = await ruleStore.move(id, position)
        if (moved) await compile()
        return moved
      }),
    enable: (id: string, enabled: boolean): Promise<boolean> =>
      change(async () => {
        const changed = await ruleStore.setEnabled(id, enabled)
        if (changed) await compile()
        return changed
      }),
    /** From the snapshot, in endpoint then position order. */
    list: (endpointId?: string | null): RuleEntry[] => (endpointId === undefined ? ruleList : ruleList.filter((r) => r.endpointId === endpointId)).map(entry),
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
    /** Another process changed the definitions in the store: read them afresh. */
    reload: (): Promise<void> =>
      change(async () => {
        // An endpoint edited elsewhere may key its requests differently now: number duplicates afresh.
        const before = new Map([...routes.values()].map((r) => [r.endpoint.id, JSON.stringify(r.endpoint)]))
        await compile()
        for (const [id, was] of before) {
          const now = [...routes.values()].find((r) => r.endpoint.id === id)
          if (!now || JSON.stringify(now.endpoint) !== was) dedupe.forget(id)
        }
      }),
  }
}
