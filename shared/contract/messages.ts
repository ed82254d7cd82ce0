// The one contract between the engine and every UI: each command's request (a zod schema, checked
// at the engine's edge) and response type, each pushed event's payload, and the wire frames.
// The engine host's handlers and the renderer's client are both typed from this file.
import { z } from 'zod'
import { SEND_FAULT_TYPES, ENVELOPES, TIMELINE_STATUSES, POLICY_PRESET_IDS } from '../sender'
import { SCHEME_IDS } from '../signatures'
import { HANDSHAKE_KINDS, RULE_PRESETS, dedupeKeySchema, targetUrlSchema } from '../receiver'
import { PROVIDER_IDS } from '../providers'
import type { ConsumerCheckResult, SenderConformanceReport } from '../conformance'
import { EXPORT_FORMATS, type ReplayResult } from './exports'
import { historySchemas, type HistoryResponses } from './history-commands'
import { memberSchemas, type MemberResponses } from './member-commands'
import { tokenSchemas, type TokenResponses } from './token-commands'
import { workspaceSchemas, type WorkspaceResponses } from './workspace-commands'
import { listSchemas, type ListResponses } from './list-commands'
import { auditSchemas, type AuditResponses } from './audit-commands'
import { breakpointSchemas, type BreakpointEvents, type BreakpointResponses } from './breakpoint-commands'
import { toolSchemas, type ToolResponses } from './tool-commands'
import type {
  ClockView,
  DeliveryDetail,
  EndpointView,
  ForwardLegView,
  RecordedScenarioView,
  RecordingView,
  ScenarioRunView,
  RequestDetail,
  RuleView,
  SimulationView,
  Snapshot,
  SubscriptionView,
  TimelineRow,
  TunnelView,
} from './views'

export * from './views'

const id = z.string().min(1).max(200)
const forwardToList = z.array(targetUrlSchema).max(10)

/** How a captured request is resent: as it was, edited and re-signed, or edited with the signature broken. */
export const RESEND_MODES = ['as-is', 'resign', 'broken'] as const
export type ResendMode = (typeof RESEND_MODES)[number]
const rowId = z.number().int().nonnegative()
const scheme = z.enum(SCHEME_IDS)
const status = z.enum(TIMELINE_STATUSES)

export const timelineFilterSchema = z
  .object({
    status: z.array(status).max(5).optional(),
    endpointId: id.optional(),
    subscriptionId: id.optional(),
    eventType: z.string().max(200).optional(),
    search: z.string().max(200).optional(),
    clock: z.string().min(1).max(100).optional(),
  })
  .strict()

export const requestSchemas = {
  snapshot: z.object({}).strict(),
  'timeline.page': z
    .object({ offset: z.number().int().min(0), limit: z.number().int().min(1).max(2000), filter: timelineFilterSchema.optional() })
    .strict(),
  'delivery.get': z.object({ id: rowId }).strict(),
  'delivery.retryNow': z.object({ id: rowId }).strict(),
  'delivery.replay': z.object({ id: rowId }).strict(),
  'request.get': z.object({ id: rowId }).strict(),
  /**
   * Sends a captured request to a target again: as it was (its original signature), edited and
   * re-signed with the endpoint's secret, or edited with the signature left broken on purpose.
   * Without `to`, the endpoint's first forward target. The new leg is stored and returned.
   */
  'request.resend': z
    .object({
      id: rowId,
      to: targetUrlSchema.optional(),
      mode: z.enum(RESEND_MODES),
      /** Headers to set (replacing any of the same name). */
      headers: z.array(z.object({ name: z.string().min(1).max(200).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name is letters, digits and -'), value: z.string().max(8000) }).strict()).max(100).optional(),
      /** A new body as text (UTF-8); the original bytes when absent. */
      body: z.string().max(10_000_000).optional(),
      /** A new body uploaded as bytes at BODY_UPLOAD_PATH (a file, any size up to an endpoint's limit): its upload id. */
      bodyUpload: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'an upload id is what the upload answered').optional(),
    })
    .strict()
    .refine((req) => req.body === undefined || req.bodyUpload === undefined, { message: 'give the new body as body or as bodyUpload, not both', path: ['bodyUpload'] }),
  'endpoint.create': z
    .object({
      name: z.string().trim().min(1).max(120),
      slug: z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a slug is lower-case letters, digits and dashes')
        .optional(),
      scheme: scheme.nullable(),
      secrets: z.array(z.string().min(1).max(500)).max(5),
      /** The receiver's own dedupe key definition; null for none. */
      dedupe: dedupeKeySchema.nullable(),
      /** "Forward to your app": where a request no rule answers goes; several = fan-out (the first answers). */
      forwardTo: forwardToList.optional(),
    })
    .strict(),
  /** Sets, changes or clears (empty list) an endpoint's forward targets; a loop back to the receiver is refused. */
  'endpoint.setForwardTo': z.object({ id, forwardTo: forwardToList }).strict(),
  /** Changes an endpoint's dedupe key: auto (find the event id), one of its own, or null (none). */
  'endpoint.setDedupe': z.object({ id, dedupe: dedupeKeySchema.nullable() }).strict(),
  'endpoint.delete': z.object({ id }).strict(),
  'rule.addPreset': z
    .object({
      endpointId: id,
      preset: z.enum(RULE_PRESETS.ids),
      /** The preset's parameters by name (its catalog entry lists them), e.g. {n: 3} for "fail the first N". */
      parameters: z.record(z.string().max(60), z.number()).optional(),
    })
    .strict(),
  /** Replaces a rule's definition (matchers, steps or sequence), validated by the receiver. */
  /** `revision`: the rule's revision the edit was made on (RuleView.revision); an edit on an older one is refused as a conflict. */
  'rule.update': z.object({ id, definition: z.record(z.string(), z.unknown()), revision: z.number().int().min(1).optional() }).strict(),
  'rule.setEnabled': z.object({ id, enabled: z.boolean() }).strict(),
  'rule.move': z.object({ id, position: z.number().int().min(0) }).strict(),
  'rule.delete': z.object({ id }).strict(),
  'subscription.create': z
    .object({
      name: z.string().trim().min(1).max(120),
      /** Either a URL or one of our endpoints (loop mode). */
      target: z.union([z.object({ url: z.url({ protocol: /^https?$/ }) }).strict(), z.object({ endpointId: id }).strict()]),
      /**
       * Deliver as this provider does (shared/providers/): its pack gives scheme, policy, headers,
       * envelope and content type; scheme and policyId given here override the pack's.
       */
      provider: z.enum(PROVIDER_IDS).optional(),
      /** The provider's API version (one of its pack's `apiVersions`); default: the pack's first. */
      apiVersion: z.string().trim().min(1).max(40).optional(),
      /** Required without a provider. */
      scheme: scheme.optional(),
      secret: z.string().min(1).max(500).optional(),
      /** Required without a provider. */
      policyId: z.enum(POLICY_PRESET_IDS).optional(),
      /** Body shape: Hookloop's envelope (default) or the payload as the whole body. Not with a provider. */
      envelope: z.enum(ENVELOPES).optional(),
    })
    .strict()
    .refine((s) => s.provider !== undefined || (s.scheme !== undefined && s.policyId !== undefined), { message: 'name a provider, or a scheme and a policyId' })
    .refine((s) => s.provider === undefined || s.envelope === undefined, { message: "a provider's pack gives the body shape; leave envelope out" })
    .refine((s) => s.provider !== undefined || s.apiVersion === undefined, { message: 'apiVersion needs a provider' }),
  'subscription.setPaused': z.object({ id, paused: z.boolean() }).strict(),
  'subscription.rotateSecret': z.object({ id }).strict(),
  'event.send': z
    .object({
      subscriptionId: id,
      eventType: z.string().trim().min(1).max(200),
      /**
       * The payload as JSON text; it must parse. Left out for a provider's subscription: each event
       * takes the provider's catalog payload for eventType, fresh ids and times per event, as
       * `hookloop trigger` sends it.
       */
      payload: z.string().max(1_000_000).refine(isJson, { message: 'the payload is not valid JSON' }).optional(),
      count: z.number().int().min(1).max(1000),
      faults: z.array(z.enum(SEND_FAULT_TYPES)).max(SEND_FAULT_TYPES.length),
    })
    .strict(),
  'clock.set': z.object({ mode: z.enum(['real', 'scaled', 'virtual']), scale: z.number().min(1).max(100_000).optional() }).strict(),
  'loop.try': z.object({}).strict(),
  /** Start recording what the person does into a scenario; Stop returns the file. */
  'record.start': z.object({}).strict(),
  'record.stop': z.object({}).strict(),
  /** Runs a scenario file (its text, validated like `hookloop run`) on a fresh engine of its own. */
  'scenario.run': z.object({ text: z.string().min(1).max(5_000_000) }).strict(),
  'scenario.cancel': z.object({ runId: z.number().int().nonnegative() }).strict(),
  /** Opens the public tunnel through a localtunnel server (rebuilds the engine on the same data). */
  'tunnel.start': z
    .object({
      host: z.url({ protocol: /^https?$/ }),
      subdomain: z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a subdomain is lower-case letters, digits and dashes')
        .optional(),
    })
    .strict(),
  'tunnel.stop': z.object({}).strict(),
  /** The consumer conformance check: a battery of deliveries to someone's endpoint, graded. */
  'check.consumer': z
    .object({
      url: z.url({ protocol: /^https?$/ }),
      /** The battery's scheme; absent with a handshake = only the handshake is checked. */
      scheme: scheme.optional(),
      /** Make this provider's verification handshake first and grade the answer. */
      handshake: z.enum(HANDSHAKE_KINDS).optional(),
      /** May be empty for a handshake that needs none (Graph, Dropbox); the check says when one is missing. */
      secret: z.string().max(500),
      timeoutMs: z.number().int().min(100).max(120_000).optional(),
      latencySamples: z.number().int().min(1).max(100).optional(),
    })
    .strict(),
  /** The sender conformance check: what arrived at one of our endpoints against a policy. */
  'check.sender': z
    .object({
      endpointId: id,
      policyId: z.enum(POLICY_PRESET_IDS),
      toleranceMs: z.number().int().min(0).max(3_600_000).optional(),
      tolerancePct: z.number().min(0).max(100).optional(),
    })
    .strict(),
  /** Selected deliveries and requests as HAR 1.2, cURL commands or a case file; redacted unless keepSecrets. */
  'export.selection': z
    .object({
      deliveryIds: z.array(rowId).max(10_000).default([]),
      requestIds: z.array(rowId).max(10_000).default([]),
      format: z.enum(EXPORT_FORMATS),
      keepSecrets: z.boolean().default(false),
    })
    .strict(),
  /** Imports a HAR or case file and sends its requests again to a URL or one of our endpoints, optionally re-signed. */
  'import.replay': z
    .object({
      text: z.string().min(1).max(50_000_000),
      target: z.union([z.object({ url: z.url({ protocol: /^https?$/ }) }).strict(), z.object({ endpointId: id }).strict()]),
      resign: z.object({ scheme, secret: z.string().min(1).max(500) }).strict().optional(),
    })
    .strict(),
  /** A HAR or case file as a scenario file: requests sent again in order, rules recreated, what was observed expected, secrets as placeholders. */
  'import.toScenario': z
    .object({
      text: z.string().min(1).max(50_000_000),
      /** The file's name, for the scenario's name and description. */
      source: z.string().min(1).max(300).optional(),
    })
    .strict(),
  ...historySchemas,
  ...breakpointSchemas,
  ...toolSchemas,
  ...memberSchemas,
  ...tokenSchemas,
  ...workspaceSchemas,
  ...listSchemas,
  ...auditSchemas,
} as const

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

export type CommandName = keyof typeof requestSchemas
export type CommandRequest<C extends CommandName> = z.input<(typeof requestSchemas)[C]>

export interface CommandResponses extends HistoryResponses, BreakpointResponses, ToolResponses, MemberResponses, TokenResponses, WorkspaceResponses, ListResponses, AuditResponses {
  snapshot: Snapshot
  'timeline.page': { rows: TimelineRow[]; total: number }
  'delivery.get': DeliveryDetail
  'delivery.retryNow': { ok: true }
  'delivery.replay': { deliveryId: number }
  'request.get': RequestDetail
  'request.resend': ForwardLegView
  'endpoint.create': EndpointView
  'endpoint.setForwardTo': EndpointView
  'endpoint.setDedupe': EndpointView
  'endpoint.delete': { ok: true }
  'rule.addPreset': RuleView
  'rule.update': RuleView
  'rule.setEnabled': { ok: true }
  'rule.move': { ok: true }
  'rule.delete': { ok: true }
  'subscription.create': SubscriptionView
  'subscription.setPaused': { ok: true }
  'subscription.rotateSecret': { secretHint: string }
  'event.send': { eventIds: string[]; deliveryIds: number[] }
  'clock.set': ClockView
  'loop.try': { endpointId: string; subscriptionId: string; eventId: string }
  'record.start': RecordingView
  'record.stop': RecordedScenarioView
  'scenario.run': ScenarioRunView
  'scenario.cancel': { ok: true }
  'tunnel.start': TunnelView
  'tunnel.stop': TunnelView
  'check.consumer': ConsumerCheckResult
  'check.sender': SenderConformanceReport
  'export.selection': { text: string; fileName: string; mime: string }
  'import.replay': { kind: 'har' | 'case'; to: string; results: ReplayResult[] }
  'import.toScenario': ImportedScenarioView
}

/** A scenario made from an imported file, ready to save. */
export interface ImportedScenarioView {
  text: string
  fileName: string
  kind: 'har' | 'case'
  events: number
  /** The events sent again (`resend` actions): the run shows each as a delivery of its own. */
  resends: number
  /** Counted as a run counts them: one per ✓ / ✗ line. */
  expectations: number
  /** What the scenario cannot say exactly as it happened. */
  notes: string[]
  /** Variable names of the `${NAME}` secret placeholders the run needs. */
  secrets: string[]
}

export type CommandResponse<C extends CommandName> = CommandResponses[C]

/** Events pushed to every connected UI, batched (the UI applies a batch once per frame). */
export interface EventPayloads extends BreakpointEvents {
  /** Rows that changed or appeared (upsert by key). */
  'timeline.upsert': { rows: TimelineRow[] }
  /** The timeline was emptied or its shape changed: re-read it. */
  'timeline.reset': { total: number }
  'endpoints.changed': { endpoints: EndpointView[] }
  'rules.changed': { rules: RuleView[] }
  'subscriptions.changed': { subscriptions: SubscriptionView[] }
  'tunnel.state': TunnelView
  'clock.state': ClockView
  /** The simulations list changed (a virtual or scaled clock started one): Snapshot.simulations anew. */
  'simulations.changed': { simulations: SimulationView[] }
  'recording.state': RecordingView
  'scenario.progress': ScenarioRunView
}
export type EventName = keyof EventPayloads
/** One pushed event: a union discriminated by name, so a switch on `name` types its payload. */
export type EventMessage<E extends EventName = EventName> = { [K in E]: { name: K; payload: EventPayloads[K] } }[E]
/** An event as (name, payload) arguments, each payload checked against its name. */
export type EventArgs = { [K in EventName]: [name: K, payload: EventPayloads[K]] }[EventName]

/** Joins an event's name and payload into its message. TypeScript cannot see that a checked
 *  (name, payload) pair is one member of the union, so this is the one place that says so. */
export function eventMessage(...[name, payload]: EventArgs): EventMessage {
  return { name, payload } as EventMessage
}

// ---- wire frames (one JSON text frame each) -----------------------------------------------------

export const clientFrameSchema = z
  .object({ t: z.literal('cmd'), id: z.number().int().nonnegative(), name: z.string().max(60), req: z.unknown() })
  .strict()
export type ClientFrame = z.infer<typeof clientFrameSchema>

export const ERROR_CODES = ['bad_request', 'unknown_command', 'not_found', 'conflict', 'unavailable', 'forbidden', 'signed_out', 'internal'] as const
/** What a failed command answers: bad_request is bad input (the message names the field); forbidden: the account's role is below the command's (the message names the role needed); signed_out: the session ended; internal is a bug. */
export type ErrorCode = (typeof ERROR_CODES)[number]

export type ServerFrame =
  | { t: 'res'; id: number; ok: true; res: unknown }
  | { t: 'res'; id: number; ok: false; error: { code: ErrorCode; message: string } }
  | { t: 'events'; batch: EventMessage[] }
  | { t: 'hello'; version: 1 }

export function isCommandName(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(requestSchemas, name)
}

/** Turns a zod failure into one line naming the field: "event.send: payload: the payload is not valid JSON". */
export function describeIssues(command: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') + ': ' : ''
    return path + issue.message
  })
  return `${command}: ${parts.join('; ')}`
}

/** The path the control WebSocket listens on. */
export const CONTROL_PATH = '/control'

