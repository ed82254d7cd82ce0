// The scenario file: one JSON document a QA engineer writes once and CI replays headless.
// It names the receiver side (endpoints + rules), the sender side (subscriptions + policies),
// the events to send (with sending-side faults) and what must happen (expectations).
// The schema is strict: an unknown field is an error, never silently ignored, because a typo in
// an expectation would otherwise make a broken scenario pass.
import { z } from 'zod'
import { SCHEME_IDS } from '../signatures'
import { DECISIONS, NETWORK_OUTCOMES, ENVELOPES, DELIVERY_STATUSES, EVENT_ID_PATTERN, EVENT_ID_RULE } from '../sender'
import { isStatusWord, providerStatusWords } from './status-words'
import { endpointSchema, policySchema, sendFaultSchema, type PolicyDefinition } from './parts'
import { forwardExpectationSchema, scenarioAppSchema } from './forward-mode'
import { scenarioTunnelSchema } from './public-tunnel'
import { apiVersionFor, PROVIDER_IDS, PROVIDERS } from '../providers'

export const SCENARIO_VERSION = 1

/** Scenario-local names (events, subscriptions): short, readable in reports and messages. */
const localId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a name is letters, digits, "_", "." and "-" (starting with a letter or digit)')

/** A fixed start time (ISO 8601) makes timestamps, and so signatures, the same on every run. */
const clockStart = z.iso.datetime({ offset: true }).optional()

export const scenarioClockSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('real') }),
  z.strictObject({ mode: z.literal('scaled'), factor: z.number().positive(), start: clockStart }),
  z.strictObject({ mode: z.literal('virtual'), start: clockStart }),
])


/** What one attempt ended with: `http_<status>`, a network outcome, or what the sender recorded instead of a try. */
export const ATTEMPT_OUTCOMES = [...NETWORK_OUTCOMES, 'dropped', 'interrupted'] as const
const attemptOutcomeSchema = z.string().refine((value) => /^http_[1-5]\d\d$/.test(value) || (ATTEMPT_OUTCOMES as readonly string[]).includes(value), {
  message: `an outcome is http_<status> or one of ${ATTEMPT_OUTCOMES.join(', ')}`,
})

export const subscriptionSchema = z
  .strictObject({
    id: localId,
    name: z.string().optional(),
    /** Loop mode: one of this scenario's endpoints (by slug). Exactly one of endpoint / url. */
    endpoint: z.string().optional(),
    /** A consumer's own URL (http/https). */
    url: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * Deliver as this provider does (shared/providers/): its pack gives the scheme, the policy, the
     * headers, the body envelope and the content type; scheme and policy given here override the pack's.
     */
    provider: z.enum(PROVIDER_IDS).optional(),
    /** The provider's API version (one its pack lists); default: the pack's newest. Only with a provider. */
    api_version: z.string().min(1).optional(),
    /** Default: the provider's, else standard-webhooks. */
    scheme: z.enum(SCHEME_IDS).optional(),
    secrets: z.array(z.string().min(1)).default([]),
    /** Required without a provider; default: the provider's documented policy. */
    policy: policySchema.optional(),
    headers: z.record(z.string(), z.string()).default({}),
    /** Header that carries the event id; the scheme's default when absent. */
    event_id_header: z.string().optional(),
    /**
     * Body shape: "event" sends Hookloop's {event_id, event_type, payload}; "payload" sends the
     * event's payload as the whole body (it should carry its own id fields).
     */
    envelope: z.enum(ENVELOPES).optional(),
  })
  .superRefine((sub, ctx) => {
    if ((sub.endpoint === undefined) === (sub.url === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of "endpoint" (one of this scenario\'s endpoints) or "url"' })
    }
    if (sub.provider === undefined) {
      if (sub.policy === undefined) ctx.addIssue({ code: 'custom', path: ['policy'], message: `give a "policy", or a "provider" whose policy it takes (providers: ${PROVIDER_IDS.join(', ')})` })
      if (sub.api_version !== undefined) ctx.addIssue({ code: 'custom', path: ['api_version'], message: 'an API version needs a "provider" (the provider whose version it is)' })
      return
    }
    if (sub.envelope !== undefined) ctx.addIssue({ code: 'custom', path: ['envelope'], message: `the ${sub.provider} provider gives the body shape; leave "envelope" out` })
    try {
      apiVersionFor(PROVIDERS[sub.provider], sub.api_version)
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['api_version'], message: (error as Error).message.replace(/^api_version: /, '') })
    }
  })
  // The pack fills in what the file leaves out, once, here: everything after sees a whole subscription.
  .transform((sub) => {
    const pack = sub.provider === undefined ? undefined : PROVIDERS[sub.provider]
    return {
      ...sub,
      scheme: sub.scheme ?? pack?.scheme ?? 'standard-webhooks',
      policy: sub.policy ?? (pack?.policy as PolicyDefinition),
      envelope: sub.envelope ?? 'event',
      api_version: pack ? (apiVersionFor(pack, sub.api_version) ?? undefined) : undefined,
    }
  })

/** Overrides of a catalog payload: `{"data.object.amount": 500}`, or `["data.object.amount=500"]` as `trigger --set` takes them. */
export const eventOverridesSchema = z.union([z.record(z.string().min(1), z.json()), z.array(z.string().min(1))])

export const scenarioEventSchema = z.strictObject({
  /** Scenario-local name used by expectations; "e1", "e2" … by position when absent. */
  id: localId.optional(),
  type: z.string().min(1),
  /** The payload; absent: the event catalog's for `type`, from its subscriptions' provider. */
  payload: z.json().optional(),
  /** Fields of the body to set (paths as `trigger --set` takes them), on the catalog's payload or the one given. */
  overrides: eventOverridesSchema.optional(),
  /** A fixed event id (a UUID, or a provider's own id such as msg_… or evt_…); a fresh UUID per run when absent. */
  event_id: z.string().regex(EVENT_ID_PATTERN, EVENT_ID_RULE).optional(),
  /** Subscriptions to deliver to (by id); every subscription when absent. */
  subscriptions: z.array(localId).min(1).optional(),
  /** When to emit the event, in ms of scenario clock after the run starts. */
  at_ms: z.number().int().nonnegative().default(0),
  faults: z.array(sendFaultSchema).default([]),
})

/**
 * What a person does in the provider's panel, at a point of the run: the seeds' "Retry now" (also
 * after failed), "Pause" / resume and "Rotate secret" (the old secret is invalid at once).
 */
export const scenarioActionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('retry-now'),
    at_ms: z.number().int().nonnegative(),
    /** The event whose delivery gets one more attempt now. */
    event: localId,
    /** Required when the event goes to more than one subscription. */
    subscription: localId.optional(),
  }),
  z.strictObject({ type: z.literal('pause'), at_ms: z.number().int().nonnegative(), subscription: localId }),
  z.strictObject({ type: z.literal('resume'), at_ms: z.number().int().nonnegative(), subscription: localId }),
  z.strictObject({ type: z.literal('rotate-secret'), at_ms: z.number().int().nonnegative(), subscription: localId }),
  /**
   * The provider's "Resend": the same event (same event id, same body) sent again as a new
   * delivery, the way a person does it from the panel. Unlike the `duplicate` fault it is a
   * deliberate, later send with its own attempts and retries.
   */
  z.strictObject({
    type: z.literal('resend'),
    at_ms: z.number().int().nonnegative(),
    event: localId,
    /** Required when the event goes to more than one subscription. */
    subscription: localId.optional(),
  }),
])
export const SCENARIO_ACTION_TYPES = ['retry-now', 'pause', 'resume', 'rotate-secret', 'resend'] as const

const reasonOrList = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])

/** A delivery status: ours, or a preset's own word for one (seed B's `failed_permanent`). */
const statusWordSchema = z.string().refine((value) => isStatusWord(value), {
  message: `a status is one of ${[...DELIVERY_STATUSES, ...providerStatusWords()].join(', ')}`,
})

/** A header check on an arrived request: a string is "equals"; or present / equals / matches. */
export const headerCheckSchema = z.union([
  z.string(),
  z.strictObject({ present: z.boolean() }),
  z.strictObject({ equals: z.string() }),
  z.strictObject({ matches: z.string().refine((v) => isRegExp(v), { message: 'not a valid regular expression' }) }),
])

/** What one request that arrived at an endpoint must look like (the n-th arrival, in order). */
export const arrivalExpectationSchema = z.strictObject({
  /** Header name (any case) → check. */
  headers: z.record(z.string().min(1), headerCheckSchema).optional(),
  /** Body field by path (`payload.id`, `message.id`, `items[0].sku`) → its exact JSON value. */
  body: z.record(z.string().min(1), z.json()).optional(),
  /** The receiver's verify reason for this request ("ok", "signature_mismatch" …). */
  signature: z.string().min(1).optional(),
  /** The receiver's duplicate number (1 = first arrival); null when the endpoint does not dedupe. */
  duplicate: z.number().int().positive().nullable().optional(),
  /** ms since the run started when it arrived, within the endpoint expectation's tolerance_ms. */
  run_ms: z.number().int().nonnegative().optional(),
  /** Its body against its provider's published schema: "valid", "invalid" or "no-schema" (docs/receiver.md, "Schema verdict"). */
  schema: z.enum(['valid', 'invalid', 'no-schema']).optional(),
})

function isRegExp(source: string): boolean {
  try {
    new RegExp(source)
    return true
  } catch {
    return false
  }
}

export const deliveryExpectationSchema = z.strictObject({
  /** The event (scenario-local id). */
  event: localId,
  /** Required when the event goes to more than one subscription. */
  subscription: localId.optional(),
  /** Judge the second delivery a `duplicate` fault made, instead of the original. */
  copy: z.boolean().default(false),
  /** Judge the n-th `resend` action's delivery of the event (1 = the first resend). */
  resend: z.number().int().positive().optional(),
  /** Final status: ours (`failed`) or the policy preset's own word (`failed_permanent` under `csku`). */
  status: statusWordSchema.optional(),
  attempts: z.number().int().nonnegative().optional(),
  /** Exact attempt times, ms since the delivery's first attempt, on the scenario clock. */
  at_ms: z.array(z.number().int().nonnegative()).optional(),
  /** Allowed difference per attempt time (real and scaled clocks need some). */
  tolerance_ms: z.number().int().nonnegative().default(0),
  /** Outcome of each attempt, e.g. ["http_503", "timeout", "http_200"]. */
  outcomes: z.array(attemptOutcomeSchema).optional(),
  /** The receiver's duplicate number per attempt (1 = first arrival, 2 = dup #2 …). */
  duplicates: z.array(z.number().int().positive().nullable()).optional(),
  /** How many attempts the receiver flagged as duplicates. */
  duplicates_flagged: z.number().int().nonnegative().optional(),
  /** The receiver's verify reason: one for every attempt, or one per attempt ("ok", "signature_mismatch" …). */
  signatures: reasonOrList.optional(),
  /** Attempt times, ms since the run started (not since the delivery's first attempt), within tolerance_ms. */
  run_ms: z.array(z.number().int().nonnegative()).optional(),
  /** How long each attempt took, ms (null when it never went out), within tolerance_ms. */
  durations_ms: z.array(z.number().int().nonnegative().nullable()).optional(),
  /** What the sender decided after each attempt: succeeded, retry or failed. */
  decisions: z.array(z.enum(DECISIONS)).optional(),
  /** When each attempt's next one was due, ms since the delivery's first attempt (null when final), within tolerance_ms. */
  next_at_ms: z.array(z.number().int().nonnegative().nullable()).optional(),
})

export const endpointExpectationSchema = z.strictObject({
  /** The endpoint (slug). */
  endpoint: z.string().min(1),
  requests: z.number().int().nonnegative().optional(),
  duplicates_flagged: z.number().int().nonnegative().optional(),
  /** Count of requests per verify reason, e.g. {"ok": 3, "signature_mismatch": 1}. */
  signatures: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** The requests that arrived, in arrival order: one check list per request (also fixes their count). */
  arrivals: z.array(arrivalExpectationSchema).optional(),
  /** Allowed difference for arrivals' run_ms. */
  tolerance_ms: z.number().int().nonnegative().default(0),
})

export const scenarioSchema = z.strictObject({
  /** Where an editor finds the JSON Schema (docs/scenario.schema.json); not used by the run. */
  $schema: z.string().optional(),
  version: z.literal(SCENARIO_VERSION),
  name: z.string().min(1),
  description: z.string().optional(),
  clock: scenarioClockSchema.default({ mode: 'virtual' }),
  /** Run-wide limit on scenario clock time, so a scenario that never settles still ends. */
  max_duration_ms: z.number().int().positive().optional(),
  /**
   * Forward mode: the app under test, as the base URL this file's forward targets start with
   * (`http://127.0.0.1:3000`). `hookloop run --app URL` (or HOOKLOOP_APP_URL) replaces it in
   * every target at run time; `expect.forwards` judges legs to it by default.
   */
  app: scenarioAppSchema.optional(),
  /**
   * Through the tunnel: loop-mode deliveries go to the public URL of a tunnel opened to the run's
   * receiver, the way a provider reaches it. `hookloop run --tunnel-host URL` replaces the host.
   */
  tunnel: scenarioTunnelSchema.optional(),
  endpoints: z.array(endpointSchema).default([]),
  subscriptions: z.array(subscriptionSchema).min(1),
  events: z.array(scenarioEventSchema).min(1),
  actions: z.array(scenarioActionSchema).default([]),
  /**
   * A smoke run on purpose: it passes without expectations (it only has to run). Without it a
   * scenario with no expectations fails ("no expectations"), so CI never goes green on nothing.
   */
  smoke: z.boolean().default(false),
  expect: z
    .strictObject({
      deliveries: z.array(deliveryExpectationSchema).default([]),
      endpoints: z.array(endpointExpectationSchema).default([]),
      /** Forward mode: what a forward target (your app) saw and answered. */
      forwards: z.array(forwardExpectationSchema).default([]),
      /**
       * "valid": every request that arrived at the scenario's endpoints and was held against its
       * provider's published schema matches it, and at least one was (docs/scenarios.md).
       */
      schema: z.literal('valid').optional(),
    })
    .default({ deliveries: [], endpoints: [], forwards: [] }),
})

export type ScenarioClock = z.infer<typeof scenarioClockSchema>
export type ScenarioSubscription = z.infer<typeof subscriptionSchema>
export type ScenarioEvent = z.infer<typeof scenarioEventSchema>
export type ScenarioAction = z.infer<typeof scenarioActionSchema>
export type DeliveryExpectation = z.infer<typeof deliveryExpectationSchema>
export type EndpointExpectation = z.infer<typeof endpointExpectationSchema>
export type ArrivalExpectation = z.infer<typeof arrivalExpectationSchema>
export type HeaderCheck = z.infer<typeof headerCheckSchema>
export type Scenario = z.infer<typeof scenarioSchema>
/** A scenario as written in a file, before defaults are filled in. */
export type ScenarioInput = z.input<typeof scenarioSchema>

/** The local id of an event: its own, or "e<position>" (1-based). */
export function eventLocalId(event: Pick<ScenarioEvent, 'id'>, index: number): string {
  return event.id ?? `e${index + 1}`
}
