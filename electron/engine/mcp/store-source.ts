// The tools' source on a store opened here (a data folder, or a team's PostgreSQL) without an
// engine: no receiver port, no sender (an engine beside the app's would retry its in-flight
// deliveries); the host's views over it, and the rules written through the store's rule module as
// the app writes them (a running app or `hookloop listen` on the folder sees the new rows:
// host/definitions-watch.ts).
import { randomBytes, randomUUID } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import { DefinitionError, endpointPath, expandPreset, explainFault, explainRule, RULE_PRESETS, type Rule } from '../../../shared/receiver'
import { createDetailViews, createTimelineViews, explainSignature, SignatureExplainError } from '../host'
import { triggerCatalogEvent } from '../trigger'
import { createHeldRequestStore, createInspectorReads, createRuleStore, createSqliteEngine, type HeldRequestStore, type RuleStore, type SecretBox, type SqlEngine, type StoredRule } from '../store'
import { ToolError, type McpRule, type McpSource } from './context'
import { askHolder } from './held-asks'
import { portAnswers } from './port-answers'

export interface StoreSourceOptions {
  /** The data folder, or postgres://user@host:port/database. */
  where: string
  /** The store, on either engine: every read goes through it. */
  store: SqlEngine
  /** Opens the store's signing secrets: answers blank them, endpoint lists show their hints. */
  secrets: SecretBox
  /** The data folder's own connection, for the rules and the held requests; null on a team's PostgreSQL store. */
  db: Database | null
  /** Where the app's or `hookloop listen`'s receiver answers now. */
  receiverUrl: () => string
}

const ruleOf = (r: StoredRule): McpRule => ({ id: r.id, endpointId: r.endpointId, name: r.rule.name ?? null, enabled: r.enabled, explain: explainRule(r.rule) })

export function createStoreSource(options: StoreSourceOptions): McpSource {
  const { db, store, where } = options
  const receiverUrl = () => options.receiverUrl().replace(/\/+$/, '')
  const reads = createInspectorReads(store, options.secrets)
  const rules = db ? createRuleStore(createSqliteEngine(db, { closeDatabase: false })) : null
  const details = createDetailViews(store, options.secrets, {
    explainRule: (definition) => explainRule(definition as Rule),
    explainFault,
    // The tunnel's public URL lives in the running app only.
    endpointUrls: (slug) => ({ localUrl: `${receiverUrl()}${endpointPath(slug)}`, publicUrl: null }),
  })
  const timeline = createTimelineViews(store)
  const ruleStore = (tool: string): RuleStore => {
    if (rules) return rules
    // A team's rules are shared by every `serve` process, each holding them in memory and told of
    // a change by the one that made it: a change made here would reach none of them.
    throw new ToolError(`${tool} changes a team's store only through \`hookloop serve\` (its processes share the rules and hear of each change there): change the rule in the app it serves, or give \`hookloop mcp\` --server and an editor's token; \`hookloop mcp\` reads ${where}`)
  }
  const heldStore = (): HeldRequestStore => {
    if (!db) throw new ToolError(`held requests are shared through a data folder; ${where} is a team's store: act on them in the app \`hookloop serve\` serves, or give \`hookloop mcp\` --server and an editor's token`)
    return createHeldRequestStore(db)
  }
  return {
    where,
    receiverUrl: async () => options.receiverUrl(),
    endpoints: () => details.endpointViews(),
    rules: async () => (await reads.rules()).map(ruleOf),
    timelinePage: (filter, offset, limit) => timeline.page(filter, offset, limit),
    requestDetail: async (id) => (await details.requestDetail(id)) ?? null,
    deliveryDetail: async (id) => (await details.deliveryDetail(id)) ?? null,
    async secrets() {
      const [endpoints, subscriptions] = await Promise.all([reads.endpoints(), reads.subscriptionSecrets()])
      return [...endpoints.flatMap((e) => e.secrets), ...subscriptions].filter((s) => typeof s === 'string' && s.length >= 4)
    },
    // As the app's "add a preset" does (host/handlers.ts rule.addPreset): the preset's defaults,
    // then the parameters given, validated by the preset's own schema.
    async addRule(endpoint, { preset, parameters: given, name }) {
      const writer = ruleStore('add_fault_rule')
      const { parameters = [], seeded, target } = RULE_PRESETS.entries[preset]
      const url = target ? endpoint.forwardTo[0] : undefined
      if (target && !url) throw new ToolError(`${preset} forwards to your app: give the endpoint ${endpoint.slug} a forward target first`)
      let rule
      try {
        rule = expandPreset({
          preset,
          ...Object.fromEntries(parameters.map((p) => [p.name, p.default])),
          ...given,
          ...(seeded && given?.seed === undefined ? { seed: randomBytes(4).readUInt32BE() & 0x7fffffff } : {}),
          ...(url ? { url } : {}),
          ...(name ? { name } : {}),
        })
      } catch (error) {
        if (error instanceof DefinitionError) throw new ToolError(`${preset}: ${error.message}`)
        throw error
      }
      const id = randomUUID()
      await writer.insert({ id, endpointId: endpoint.id, position: (await writer.listFor(endpoint.id)).length, enabled: rule.enabled, rule, createdAt: Date.now() })
      return { id, endpointId: endpoint.id, name: rule.name ?? null, enabled: rule.enabled, explain: explainRule(rule) }
    },
    async removeRule(id) {
      const writer = ruleStore('remove_fault_rule')
      const stored = await writer.get(id)
      if (!stored) return null
      await writer.delete(id)
      return ruleOf(stored)
    },
    heldRequests: async () => heldStore().list(),
    decideHeld: (requestId, decision) => askHolder(heldStore(), requestId, decision),
    async explainSignature(requestId) {
      try {
        // On the request's clock: a simulation's for a request one of its attempts made (docs/time.md).
        return await explainSignature({ reads, endpointUrl: (slug) => `${receiverUrl()}${endpointPath(slug)}`, clockOf: async (id) => (await details.requestDetail(id))?.clock ?? { kind: 'wall' } }, requestId)
      } catch (error) {
        if (error instanceof SignatureExplainError) throw new ToolError(error.message)
        throw error
      }
    },
    async triggerToEndpoint({ endpoint: id, ...event }) {
      const endpoint = await reads.endpoint(id)
      if (!endpoint) throw new ToolError(`the endpoint ${id} was deleted meanwhile`)
      const url = `${receiverUrl()}${endpointPath(endpoint.slug)}`
      // The store's own receiver is the app's or listen's: without one, the event would go nowhere.
      if (!(await portAnswers(url))) {
        throw new ToolError(
          `nothing answers at ${url}: start the Hookloop app or \`hookloop listen --data ${where}\` on this data folder (and give \`hookloop mcp\` its receiver with --receiver-url when it is not ${options.receiverUrl()}), or trigger to a url instead`,
        )
      }
      return triggerCatalogEvent({ ...event, url, endpoint })
    },
    async close() {
      if (db) db.close()
      else await store.close()
    },
  }
}
