// What every tool of `hookloop mcp` reads through: the data folder's store opened without an
// engine (no receiver port, no sender: an engine beside the app's would retry its in-flight
// deliveries), and the host's views over it, so an agent sees what the app shows.
import type { Database } from 'better-sqlite3'
import { z } from 'zod'
import { explainFault, explainRule, type Rule, endpointPath, type Endpoint } from '../../../shared/receiver'
import { createDetailViews, type DetailViews, createTimelineViews, type TimelineViews } from '../host'
import { createEndpointStore, type EndpointStore, createRequestStore, createRuleStore, type RuleStore, createSubscriptionStatements } from '../store'

export interface McpServerOptions {
  /** The data folder (shown in answers, so an agent knows which one it reads). */
  dataDir: string
  db: Database
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
  readonly endpoints: EndpointStore
  readonly rules: RuleStore
  readonly requests: ReturnType<typeof createRequestStore>
  /** An endpoint's local URL at the configured receiver. */
  endpointUrl(slug: string): string
  /** An endpoint named by its id or its slug, or a ToolError listing the ones there are. */
  endpoint(idOrSlug: string): Endpoint
  /** The `what` #id a tool was asked for (`row`, as read), or a ToolError saying this data folder has none. */
  stored<T>(what: string, id: number, row: T | null | undefined): T
  /** Every signing secret in the store (endpoints and subscriptions): no answer may hold one. */
  secrets(): string[]
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
  const { db } = options
  const endpointUrl = (slug: string) => `${options.receiverUrl().replace(/\/+$/, '')}${endpointPath(slug)}`
  const endpoints = createEndpointStore(db)
  const subscriptions = createSubscriptionStatements(db)
  return {
    options,
    timeline: createTimelineViews(db),
    details: createDetailViews(db, {
      explainRule: (definition) => explainRule(definition as Rule),
      explainFault,
      // The tunnel's public URL lives in the running app only.
      endpointUrls: (slug) => ({ localUrl: endpointUrl(slug), publicUrl: null }),
    }),
    endpoints,
    rules: createRuleStore(db),
    requests: createRequestStore(db),
    endpointUrl,
    endpoint(idOrSlug) {
      const found = endpoints.get(idOrSlug) ?? endpoints.getBySlug(idOrSlug)
      if (found) return found
      const slugs = endpoints.list().map((e) => e.slug)
      throw new ToolError(`no endpoint "${idOrSlug}" in ${options.dataDir} (${slugs.length ? `endpoints: ${slugs.join(', ')}` : 'it has no endpoints yet'})`)
    },
    stored(what, id, row) {
      if (row) return row
      throw new ToolError(`${what} #${id} is not in ${options.dataDir} (list_rows lists the ids there are)`)
    },
    secrets() {
      const fromSubscriptions = subscriptions.list().flatMap((s) => {
        try {
          return JSON.parse(s.secrets_json) as string[]
        } catch {
          return []
        }
      })
      return [...endpoints.list().flatMap((e) => e.secrets), ...fromSubscriptions].filter((s) => typeof s === 'string' && s.length >= 4)
    },
  }
}
