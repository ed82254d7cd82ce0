// What every tool of `hookloop mcp` reads and changes through: a source, either a store opened
// here (a data folder, or a team's PostgreSQL: store-source.ts) or a served Hookloop read with an
// API token (server-source.ts). Both answer in the host's views, so an agent sees what the app
// shows, and the tools never ask which one they have.
import { z } from 'zod'
import type { CommandRequest, DeliveryDetail, EndpointView, RequestDetail, SignatureExplanation, TimelineFilter, TimelineRow, TriggerAnswer } from '../../../shared/contract'
import { endpointPath, type HeldRequest, type HoldDecision, type PresetId } from '../../../shared/receiver'

/** A rule as the tools show it. */
export interface McpRule {
  id: string
  endpointId: string | null
  name: string | null
  enabled: boolean
  /** The rule's explain() sentence. */
  explain: string
}

/** A preset rule to add to an endpoint (add_fault_rule): the preset's own defaults, then these. */
export interface PresetRule {
  preset: PresetId
  parameters?: Record<string, unknown> | undefined
  name?: string | undefined
}

export interface McpSource {
  /** Where the tools read (said in answers, so an agent knows which one): the data folder, postgres://user@host:port/database, or a served Hookloop's origin. */
  readonly where: string
  /** Where the receiver of that store answers: endpoint URLs are made from it. */
  receiverUrl(): Promise<string>
  /** The endpoints as the app lists them, their URLs at receiverUrl. */
  endpoints(): Promise<EndpointView[]>
  rules(): Promise<McpRule[]>
  timelinePage(filter: TimelineFilter, offset: number, limit: number): Promise<{ rows: TimelineRow[]; total: number }>
  requestDetail(id: number): Promise<RequestDetail | null>
  deliveryDetail(id: number): Promise<DeliveryDetail | null>
  /** Every signing secret the source holds (endpoints and subscriptions), so no answer carries one; none from a server, which hands out none. */
  secrets(): Promise<string[]>
  addRule(endpoint: EndpointView, rule: PresetRule): Promise<McpRule>
  /** The rule removed, or null when there is none by that id. */
  removeRule(id: string): Promise<McpRule | null>
  /** The requests a breakpoint holds now. */
  heldRequests(): Promise<HeldRequest[]>
  /** Has the request's holder act on the decision; what became of it, said to the agent. */
  decideHeld(requestId: number, decision: HoldDecision): Promise<string>
  /**
   * Why a request's signature passed or failed, checked again with its endpoint's current secrets
   * (host/signature-explain.ts); null when there is no such request. A server runs it itself
   * (`request.explainSignature`): it hands out no secret.
   */
  explainSignature(requestId: number): Promise<SignatureExplanation | null>
  /** A catalog event delivered to an endpoint's URL, signed with its secret (engine/trigger.ts); a server delivers it itself (`endpoint.trigger`). */
  triggerToEndpoint(req: CommandRequest<'endpoint.trigger'>): Promise<TriggerAnswer>
  close(): Promise<void>
}

export interface McpServerOptions {
  source: McpSource
  /** Whether the tools that change anything may run (`--allow-changes`). */
  allowChanges: boolean
  /** A line for the person running the server (stderr: stdout carries only the protocol). */
  log: (line: string) => void
}

export interface McpContext {
  readonly options: McpServerOptions
  readonly source: McpSource
  /** An endpoint's URL at the source's receiver. */
  endpointUrl(slug: string): Promise<string>
  /** An endpoint named by its id or its slug, or a ToolError listing the ones there are. */
  endpoint(idOrSlug: string): Promise<EndpointView>
  /** The `what` #id a tool was asked for (`row`, as read), or a ToolError saying this source has none. */
  stored<T>(what: string, id: number, row: T | null | undefined): T
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
  const { source } = options
  return {
    options,
    source,
    async endpointUrl(slug) {
      return `${(await source.receiverUrl()).replace(/\/+$/, '')}${endpointPath(slug)}`
    },
    async endpoint(idOrSlug) {
      const endpoints = await source.endpoints()
      const found = endpoints.find((e) => e.id === idOrSlug) ?? endpoints.find((e) => e.slug === idOrSlug)
      if (found) return found
      throw new ToolError(`no endpoint "${idOrSlug}" in ${source.where} (${endpoints.length ? `endpoints: ${endpoints.map((e) => e.slug).join(', ')}` : 'it has no endpoints yet'})`)
    },
    stored(what, id, row) {
      if (row) return row
      throw new ToolError(`${what} #${id} is not in ${source.where} (list_rows lists the ids there are)`)
    },
  }
}
