// What every tool of `hookloop mcp` reads through: the store (a data folder, or a team's
// PostgreSQL) opened without an engine (no receiver port, no sender: an engine beside the app's
// would retry its in-flight deliveries), and the host's views over it, so an agent sees what the
// app shows.
import type { Database } from 'better-sqlite3'
import { z } from 'zod'
import { explainFault, explainRule, type Rule, endpointPath, type Endpoint } from '../../../shared/receiver'
import { createDetailViews, type DetailViews, createTimelineViews, type TimelineViews } from '../host'
import { createInspectorReads, createRuleStore, createSqliteEngine, type InspectorReads, type RuleStore, type SecretBox, type SqlEngine } from '../store'

export interface McpServerOptions {
  /** Where the store is (shown in answers, so an agent knows which one it reads): the data folder, or postgres://user@host:port/database. */
  dataDir: string
  /** The store, on either engine: every read tool reads through it. */
  store: SqlEngine
  /** Opens the store's signing secrets: answers blank them, endpoint lists show their hints. */
  secrets: SecretBox
  /** The data folder's own connection, for the tools that write rules; null on a team's PostgreSQL store. */
  db: Database | null
  /** Whether the tools that change anything may run (`--allow-changes`). */
  allowChanges: boolean
  /** Where the app's or `hookloop listen`'s receiver answers now: endpoint URLs are made from it. */
  receiverUrl: () => string
  /** A line for the person running the server (stderr: stdout carries only the protocol). */
  log: (line: string) => void
}

export interface McpContext {
  readonly options: McpServerOptions
  readonly timeline: TimelineViews
  readonly details: DetailViews
  readonly reads: InspectorReads
  /** The rules, to change: refused (a ToolError) on a team's PostgreSQL store. */
  ruleStore(tool: string): RuleStore
  /** An endpoint's local URL at the configured receiver. */
  endpointUrl(slug: string): string
  /** An endpoint named by its id or its slug, or a ToolError listing the ones there are. */
  endpoint(idOrSlug: string): Promise<Endpoint>
  /** The `what` #id a tool was asked for (`row`, as read), or a ToolError saying this store has none. */
  stored<T>(what: string, id: number, row: T | null | undefined): T
  /** Every signing secret in the store (endpoints and subscriptions): no answer may hold one. */
  secrets(): Promise<string[]>
}

/** A refusal or a bad input, said to the agent as a tool error (isError) in one sentence. */
export class ToolError extends Error {
  override name = 'ToolError'
}

/** One tool: its name, what it says to an agent, its input (zod), and what it does. */
export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string
  title: string
  description: string
  /** True for a tool that writes to the store or sends traffic: refused without --allow-changes. */
  changes: boolean
  input: Shape
  run(ctx: McpContext, args: z.infer<z.ZodObject<Shape>>): unknown
}

export const defineTool = <Shape extends z.ZodRawShape>(tool: ToolDefinition<Shape>): ToolDefinition<Shape> => tool

/** The input of a tool that shows one stored row: its id, as list_rows gives it. */
export const rowIdInput = (row: 'delivery' | 'request') => ({ id: z.number().int().positive().describe(`${row} id`) })

export function createMcpContext(options: McpServerOptions): McpContext {
  const { db, store } = options
  const endpointUrl = (slug: string) => `${options.receiverUrl().replace(/\/+$/, '')}${endpointPath(slug)}`
  const reads = createInspectorReads(store, options.secrets)
  const rules = db ? createRuleStore(createSqliteEngine(db, { closeDatabase: false })) : null
  return {
    options,
    timeline: createTimelineViews(store),
    details: createDetailViews(store, options.secrets, {
      explainRule: (definition) => explainRule(definition as Rule),
      explainFault,
      // The tunnel's public URL lives in the running app only.
      endpointUrls: (slug) => ({ localUrl: endpointUrl(slug), publicUrl: null }),
    }),
    reads,
    ruleStore(tool) {
      if (rules) return rules
      // A team's rules are shared by every `serve` process, each holding them in memory and told of
      // a change by the one that made it: a change made here would reach none of them.
      throw new ToolError(`${tool} changes a team's store only through \`hookloop serve\` (its processes share the rules and hear of each change there): change the rule in the app it serves; \`hookloop mcp\` reads ${options.dataDir}`)
    },
    endpointUrl,
    async endpoint(idOrSlug) {
      const found = (await reads.endpoint(idOrSlug)) ?? (await reads.endpointBySlug(idOrSlug))
      if (found) return found
      const slugs = (await reads.endpoints()).map((e) => e.slug)
      throw new ToolError(`no endpoint "${idOrSlug}" in ${options.dataDir} (${slugs.length ? `endpoints: ${slugs.join(', ')}` : 'it has no endpoints yet'})`)
    },
    stored(what, id, row) {
      if (row) return row
      throw new ToolError(`${what} #${id} is not in ${options.dataDir} (list_rows lists the ids there are)`)
    },
    async secrets() {
      const [endpoints, subscriptions] = await Promise.all([reads.endpoints(), reads.subscriptionSecrets()])
      return [...endpoints.flatMap((e) => e.secrets), ...subscriptions].filter((s) => typeof s === 'string' && s.length >= 4)
    },
  }
}
