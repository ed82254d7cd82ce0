// What the UI sees: the views the engine host builds from the store and pushes to every front
// door (Electron window, browser mode). Plain JSON: bodies travel as base64, times as ms.
import type { BreakpointListView } from './breakpoint-commands'
import type { HoldRecord } from '../receiver'
import type { ClockMode } from '../clock'
import type { ScenarioReport } from '../scenario'
import type { SchemeId, VerifyReason } from '../signatures'
import type { Envelope, Decision, DeliveryStatus, TimelineStatus, PolicyPresetId } from '../sender'
import type { ProviderId } from '../providers'
import type { PresetView } from '../catalog'
import type { RequestRecord, DedupeKey, DedupePresetId, HandshakeKind, PresetId, ForwardLegKind, ForwardLegOutcome, SchemaVerdict, SchemaVerdictKind } from '../receiver'

export type { DeliveryStatus, TimelineStatus }

/** Colour class of one attempt mark on the timeline. */
export type MarkTone =
  | 'ok' // 2xx, accepted
  | 'retrying' // 5xx, timeout, connection error: another attempt follows
  | 'final' // 4xx / 3xx: final, no retry
  | 'failed' // the last attempt of a delivery that ended failed
  | 'pending' // scheduled, not yet made

/**
 * A row's schema verdict (its last request's body against its provider's schema): the first place
 * it fails, for the badge. Absent: not judged (the endpoint names no provider, or not yet).
 */
export interface SchemaBadge {
  verdict: SchemaVerdictKind
  pointer?: string
  expected?: string
}

export interface SignatureBadge {
  state: 'valid' | 'invalid' | 'none'
  scheme?: SchemeId
  reason?: VerifyReason
  detail?: string
}

/**
 * The clock a row's times are read on (docs/time.md). Real traffic, and deliveries sent on the
 * real clock, are on the wall clock; a simulation's rows (Try the loop, a scenario run, a sender
 * session on the virtual or scaled clock) are on that simulation's own time and read on an axis
 * of their own (time since `startedAt`), never beside wall-clock rows as if comparable.
 */
export type RowClock =
  | { kind: 'wall' }
  | { kind: 'simulated'; simulationId: string; mode: 'virtual' | 'scaled'; startedAt: number }

/** One simulation the store holds rows of: what the timeline's clock picker lists. */
export interface SimulationView {
  id: string
  mode: 'virtual' | 'scaled'
  /** Scaled mode: simulated seconds per wall second; 1 for virtual. */
  scale: number
  /** Simulation time when it started (the origin of its axis). */
  startedAt: number
  /** Wall time when it started. */
  startedWallAt: number
  /** In words: "Try the loop", "scenario checkout-retries", "sender session (virtual clock)". */
  label: string
}

export interface TimelineMark {
  /** 'attempt' (sender side) or 'request' (a captured inbound request). */
  kind: 'attempt' | 'request'
  id: number
  n: number
  /** On the row's clock (its `clock`). */
  at: number
  /** Wall time of the same moment, where it differs from `at` (a simulated attempt); else absent. */
  wallAt?: number
  durationMs: number | null
  tone: MarkTone
  /** Short label: "503", "timeout", "200", "reset" … */
  label: string
  /** Next attempt due at (sender side), for the wait drawn between marks. */
  nextAt: number | null
  /** Forward mode: whether the app saw this request and what it answered; absent when it was not forwarded. */
  app?: AppMark
}

/** What the app (the forward targets) made of one request, for the line under its mark. */
export interface AppMark {
  /** The leg that counts: the last answered one, else the last one. */
  outcome: ForwardLegOutcome
  status: number | null
  latencyMs: number | null
  /** Legs sent for this request (a duplicate forward, a resend: more than one). */
  legs: number
  tone: MarkTone
  /** In words: "app: 200 in 12 ms", "app: down", "app: no answer in time". */
  label: string
}

/**
 * One row of the timeline: one delivery (sender side), or one dedupe key at an endpoint
 * (receive-only, e.g. a real provider retrying).
 */
export interface TimelineRow {
  key: string
  kind: 'delivery' | 'received'
  deliveryId: number | null
  /** Hookloop's own event id for a delivery; the dedupe key (the sender's id) or "request #N" for a received row. */
  eventId: string
  /**
   * The id the consumer knows a delivery's event by when it is not eventId (a provider's `evt_…`,
   * X-GitHub-Delivery …): the row is labelled and found by it, Hookloop's id beside it. Null otherwise.
   */
  consumerEventId?: string | null
  eventType: string
  status: TimelineStatus
  subscriptionId: string | null
  endpointId: string | null
  attempts: number
  lastStatusCode: number | null
  firstAt: number
  lastAt: number | null
  nextAt: number | null
  signature: SignatureBadge
  /** Beside the signature: the schema verdict of the row's last request; absent when not judged. */
  schema?: SchemaBadge
  /** Arrivals of the same dedupe key beyond the first (0 = no duplicate). */
  duplicates: number
  marks: TimelineMark[]
  /** Which clock firstAt, lastAt, nextAt and the marks' `at` are on. */
  clock: RowClock
}

export interface TimelineFilter {
  status?: TimelineStatus[]
  endpointId?: string
  subscriptionId?: string
  eventType?: string
  search?: string
  /** 'wall' for live traffic only, or a simulation's id for that simulation's rows only; absent: all. */
  clock?: string
}

export interface HeaderPair {
  name: string
  value: string
}

export interface FaultView {
  /** What was injected, in a sentence ("answered 503", "held the request 11 s, no answer"). */
  summary: string
  ruleId: string | null
  ruleExplain: string | null
  data: unknown
}

/** A captured request for the inspector: the store's record with bodies as base64 and the verdict and fault explained. */
export interface RequestDetail
  extends Pick<
    RequestRecord,
    'id' | 'endpointId' | 'receivedAt' | 'method' | 'path' | 'query' | 'bodySize' | 'bodyTruncated' | 'remoteAddress' | 'dedupeKey' | 'duplicateOf' | 'duplicateNumber' | 'attemptId'
  > {
  headers: HeaderPair[]
  /** The stored body's start (BODY_START_BYTES at most); the whole body is downloaded at requestBodyPath. */
  bodyBase64: string
  /** How many bytes are stored (bodySize is what arrived; less is stored when the body was truncated). */
  bodyStoredBytes: number
  verify: SignatureBadge & { expected?: string; received?: string }
  /** Its body against its provider's published schema (docs/receiver.md, "Schema verdict"); null: not judged. */
  schema: SchemaVerdict | null
  /** What the receiver marked on it, in words (key kept as a digest, not inspected: why, refused: why). */
  marks?: string[]
  /** Where the dedupe key was read, in words: "auto: body.event_id", "header webhook-id"; null without a key. */
  dedupeKeyFrom?: string | null
  fault: FaultView | null
  /** What a breakpoint did to it (the request's headers and body above are as received; an edit is here). */
  hold: { summary: string; record: HoldRecord } | null
  response: { status: number | null; headers: HeaderPair[]; bodyBase64: string; ms: number | null }
  /** Forward mode: each request sent on to a target (forward, copy, resend), oldest first. */
  legs: ForwardLegView[]
  /** Which clock receivedAt, response.ms and the legs' sentAt are on: a simulation's for a request one of its attempts made (docs/time.md). */
  clock: RowClock
  /** Wall time the request arrived (its first byte), whatever its clock. */
  storedAt: number
}

/** One leg to a target: exactly what was sent and what the target answered (or why it did not). */
export interface ForwardLegView {
  id: number
  requestId: number
  kind: ForwardLegKind
  targetUrl: string
  /** On its request's clock (RequestDetail.clock); latencyMs is real time, whatever that clock. */
  sentAt: number
  /** The body's start (BODY_START_BYTES at most) and its whole size. */
  request: { method: string; url: string; headers: HeaderPair[]; bodyBase64: string; bodySize: number }
  /** The target's answer; status null when it did not answer. The body may be stored truncated. */
  response: { status: number | null; headers: HeaderPair[]; bodyBase64: string; bodySize: number; bodyTruncated: boolean }
  latencyMs: number | null
  outcome: ForwardLegOutcome
  /** The reason in words when the target did not answer ("connection refused (ECONNREFUSED)"). */
  error: string | null
  /** The leg in a sentence: "your app answered 200 in 12 ms", "your app is down: connection refused". */
  summary: string
}

export interface AttemptDetail {
  id: number
  n: number
  startedAt: number
  durationMs: number | null
  outcome: string
  statusCode: number | null
  decision: Decision
  nextAttemptAt: number | null
  error: string | null
  requestHeaders: HeaderPair[]
  responseHeaders: HeaderPair[]
  responseBodyBase64: string
  fault: unknown
  /** The request our receiver captured for this attempt (loop mode). */
  requestId: number | null
  /** Wall time it started, whatever the delivery's clock; null for attempts made before it was kept. */
  startedWallAt: number | null
}

export interface DeliveryDetail {
  id: number
  eventId: string
  eventType: string
  subscriptionId: string
  subscriptionUrl: string
  status: DeliveryStatus
  payloadBase64: string
  /**
   * The id the consumer knows the event by when the subscription delivers as a provider (Stripe's
   * `evt_…` in the body, GitHub's X-GitHub-Delivery header …), and where the consumer reads it;
   * null for Hookloop's own shape or a provider whose body carries no id (Twilio's form).
   */
  providerEventId: { value: string; where: string } | null
  faults: unknown
  attempts: AttemptDetail[]
  /** Which clock the attempts' startedAt and nextAttemptAt are on: the delivery's simulation's, or wall. */
  clock: RowClock
}

export interface DedupePresetView extends PresetView<DedupePresetId> {
  key: DedupeKey
}

export interface EndpointView {
  id: string
  slug: string
  name: string
  scheme: SchemeId | null
  /** Secrets are never sent in full: a hint per secret (first and last characters). */
  secretHints: string[]
  /** The domain key itself (null: no dedupe). */
  dedupe: DedupeKey | null
  /** Forward mode: where a request no rule answers goes ("Forward to your app"); empty: none. */
  forwardTo: string[]
  localUrl: string
  publicUrl: string | null
  /** Made by `hookloop contract add`: its spec, and the event types the send form offers from it. */
  contract: EndpointContractView | null
}

/** The spec a contract endpoint was made from, as the send form offers it (docs/contracts.md). */
export interface EndpointContractView {
  /** The spec's file or URL. */
  spec: string
  /** The operation the endpoint was made for. */
  operation: string
  /** "Shop webhooks 1.2.0"; null when the spec cannot be read now. */
  title: string | null
  /** Every event type of the spec, the endpoint's operation's first. */
  events: ContractEventView[]
  /** Why the spec's events are missing or may be stale (gone, changed since); null when fine. */
  problem: string | null
}

/** One event type of a contract's spec with its example payload. */
export interface ContractEventView {
  eventType: string
  /** The operation that declares it. */
  operation: string
  /** The example as JSON text: the spec's own, else made from its schema. */
  payload: string
  from: 'spec' | 'schema'
}

export interface RuleView {
  id: string
  endpointId: string | null
  position: number
  enabled: boolean
  /** The rule's explain() sentence. */
  explain: string
  definition: unknown
  /** Counts up with each change of the definition: `rule.update` names the one it was made on. */
  revision: number
}

/** A subscription's figures; each is defined once in shared/contract/counts.ts (COUNT_WORDS) and counted in electron/engine/store/counts.ts. */
export interface SubscriptionMetrics {
  /** Deliveries of the subscription, all time. */
  deliveries: number
  /** The same deliveries by status (they add up to `deliveries`). */
  byStatus: Record<DeliveryStatus, number>
  attempts: number
  /** Attempts classified success / failure (retried or final); the one in flight is neither. */
  successes: number
  failures: number
  /** Duplicate arrivals at Hookloop endpoints; null when the subscription delivers to a URL outside Hookloop. */
  duplicates: number | null
  /** Deliveries created in the last 24 h of wall time, and the failed among them: the badge's inputs. */
  deliveries24h: number
  failed24h: number
  /** failed24h / deliveries24h, 0..1 (0 when none). */
  failureRate24h: number
  /** True while attempt-level counts (attempts, successes, failures, duplicates) are still being
   *  counted on a large store; exact figures follow in a `subscriptions.changed` event. */
  counting?: boolean
}

export interface SubscriptionView {
  id: string
  name: string
  url: string
  scheme: SchemeId
  secretHints: string[]
  policyId: string
  policyLabel: string
  /** 'event': {event_id, event_type, payload}; 'payload': the payload is the whole body. */
  envelope: Envelope
  /** Delivers as this provider does (its pack's body, headers and content type); null: Hookloop's own shape. */
  provider: ProviderId | null
  /** The provider API version its deliveries follow; null when the provider has none (or no provider). */
  apiVersion: string | null
  /**
   * For a key-pair scheme (SendGrid's ECDSA, Discord's Ed25519): the public key the consumer's app
   * verifies with, in the provider's own text form. Not a secret; null for every other scheme.
   */
  verifyKey: string | null
  paused: boolean
  metrics: SubscriptionMetrics
}

export type TunnelView =
  | { state: 'disabled' }
  | { state: 'connecting' }
  | { state: 'online'; url: string }
  | { state: 'degraded'; url: string; liveSockets: number; maxSockets: number }
  | { state: 'reconnecting'; attempt: number; nextAt: number; lastError: string }
  | { state: 'offline'; reason: string }
  | { state: 'stopped' }

export interface ClockView {
  mode: ClockMode
  scale: number
  now: number
}

export type { PresetView }

export interface RulePresetView extends PresetView<PresetId> {
  /** The preset forwards to the endpoint's own target ("Forward to your app"). */
  target: boolean
}

/** A verification handshake of the catalog (shared/receiver/handshakes.ts), as the Checks page offers it. */
export interface HandshakeView extends PresetView<HandshakeKind> {
  provider: string
  /** Whether checking it needs a secret (its answer is an HMAC, or its request is signed). */
  needsSecret: boolean
  /** What keys the answer, in words; null = the challenge is echoed. */
  answerSecret: string | null
  /** The answer the provider's docs require, in words. */
  answer: string
}

export interface PolicyPresetView extends PresetView<PolicyPresetId> {
  /** Offsets in ms from the first attempt, one per attempt. */
  schedule: number[]
  timeoutMs: number
}

export interface Snapshot {
  endpoints: EndpointView[]
  rules: RuleView[]
  subscriptions: SubscriptionView[]
  tunnel: TunnelView
  clock: ClockView
  /** The simulations the store holds rows of, newest first. */
  simulations: SimulationView[]
  receiverUrl: string
  rulePresets: RulePresetView[]
  policyPresets: PolicyPresetView[]
  /** Where well-known senders put their event id, for the endpoint form. */
  dedupePresets: DedupePresetView[]
  /** The verification handshakes the consumer check can make. */
  handshakes: HandshakeView[]
  schemes: SchemeId[]
  /** Warnings the UI shows in a banner (e.g. secrets stored as plain text). */
  warnings: string[]
  recording: RecordingView
  /** The scenario run started from a UI, if any (the last one, finished or not). */
  scenarioRun: ScenarioRunView | null
  /** The breakpoints, the requests held now, and how long each provider waits (docs/breakpoints.md). */
  breakpoints: BreakpointListView
  /**
   * Whether this caller may run the store-wide commands (the clock, Try the loop, the tunnel,
   * recording, scenario runs, the retention): always without accounts; with accounts, in the
   * workspace `default` only (docs/team.md, "Workspaces"). The UI shows their controls by it.
   */
  storeWide: boolean
}

/** Whether a session is being recorded into a scenario, and how much so far. */
export interface RecordingView {
  active: boolean
  /** Engine clock time the recording started (null when not recording). */
  startedAt: number | null
  /** Commands recorded, and events sent among them. */
  steps: number
  events: number
}

/** What Stop made: the scenario file's text, its validation problems by JSON path, and notes. */
export interface RecordedScenarioView {
  text: string
  problems: { path: string; message: string }[]
  /** What the scenario cannot say exactly as it happened. */
  notes: string[]
}

/** A scenario run started from a UI: progress while it runs, the report when done. */
export interface ScenarioRunView {
  runId: number
  name: string
  state: 'running' | 'done' | 'error'
  settled: number
  total: number
  report: ScenarioReport | null
  error: string | null
}
