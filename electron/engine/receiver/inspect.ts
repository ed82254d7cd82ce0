// The inspect stage of a request: verify the raw bytes, read the few body fields the endpoint
// needs (bounded, off the event loop's critical path), number the dedupe key, choose the rule.
// Nothing here writes or answers; the result goes into the request's Capture.
import type { IncomingHttpHeaders } from 'node:http'
import type { Breakpoint, Endpoint, Step } from '../../../shared/receiver'
import type { Breakpoints } from './breakpoints'
import type { VerifyResult } from '../../../shared/signatures'
import { boundKey, type ArrivalTime, type BoundedKey, type DedupeTracker, type KeyArrival, type KeyExtractor } from './dedupe'
import { readBodyDocument } from './json-document'
import { DEFAULT_INSPECT_LIMITS, type InspectLimits } from './json-fields'
import type { Plan, RuleEngine } from './rule-engine'
import { answerHandshake, handshakeStepOf } from './handshake-step'
import type { PreparedReply } from './steps'
import { verifyRequest } from './verify-request'

/** An endpoint with its compiled dedupe key, and its workspace (whose rules and breakpoints for every endpoint apply to it). */
export interface LiveEndpoint {
  endpoint: Endpoint
  key: KeyExtractor | null
  workspace: string
}

export interface InspectDeps {
  dedupe: DedupeTracker
  rules: RuleEngine
  /** The URL a sender called, for URL-signed schemes: public URL when known, else local. */
  baseUrl(): string
  limits?: InspectLimits
  /** Where requests stop to be looked at and changed (breakpoints.ts). */
  breakpoints?: Pick<Breakpoints, 'match' | 'jsonPaths'>
}

export interface InspectInput {
  id: number
  /** When it arrived, on its own clock and on the wall: what the dedupe window compares. */
  arrival: ArrivalTime
  /** The time the signature's tolerance is judged against (docs/time.md). */
  verifyAt: number
  method: string
  path: string
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface Inspection {
  verify: VerifyResult | null
  key: BoundedKey | null
  /** Where an automatic key was found (`body.event_id`, `webhook-id`); null for a configured key or none. */
  keyFrom: string | null
  arrival: KeyArrival | null
  plan: Plan | null
  /** The answer to a verification handshake, when the plan ends in a handshake step. */
  handshake: PreparedReply | null
  notInspected: string | null
  /** The breakpoint the request stops at before it is answered, if any. */
  breakpoint: Breakpoint | null
}

export async function inspect(deps: InspectDeps, live: LiveEndpoint, input: InspectInput): Promise<Inspection> {
  const { endpoint } = live
  const verify = endpoint.scheme ? verifyRequest(endpoint, { body: input.body, headers: input.headers, url: `${deps.baseUrl()}${input.url}`, nowMs: input.verifyAt }) : null
  const rulePaths = deps.rules.jsonPaths(endpoint.id, live.workspace)
  const keyPaths = live.key?.paths ?? []
  const breakPaths = deps.breakpoints?.jsonPaths(endpoint.id, live.workspace) ?? []
  const paths = keyPaths.length === 0 && breakPaths.length === 0 ? rulePaths : [...keyPaths, ...rulePaths, ...breakPaths]
  const document = paths.length > 0 ? await readBodyDocument(input.body, paths, deps.limits ?? DEFAULT_INSPECT_LIMITS) : { json: undefined, notInspected: null }
  const json = () => document.json
  const found = live.key?.found ? live.key.found(input.headers, json) : null
  const raw = found ? found.value : live.key && !live.key.found ? live.key(input.headers, json) : null
  // A header's value is Latin-1 as Node reads it: an automatic key found in a header is one too.
  const key = raw === null ? null : boundKey(raw, endpoint.dedupe?.type === 'header' || (found !== null && !found.where.startsWith('body.')))
  const numbered = key ? deps.dedupe.arrive(endpoint, key, input.id, input.arrival) : null
  // Awaited only when the store is asked over the network: a data folder's number is at hand.
  const arrival = numbered instanceof Promise ? await numbered : numbered
  const q = input.url.indexOf('?')
  const query = q === -1 ? '' : input.url.slice(q + 1)
  const matchInput = {
    method: input.method,
    path: input.path,
    query,
    headers: input.headers,
    json,
    arrival: arrival?.number ?? null,
    dedupeKey: key?.key ?? null,
  }
  const plan = deps.rules.plan(endpoint.id, live.workspace, matchInput)
  const breakpoint = deps.breakpoints?.match(endpoint.id, live.workspace, matchInput) ?? null
  const planned = plan ?? defaultForwardPlan(endpoint)
  const step = handshakeStepOf(planned?.steps)
  const handshake = step ? answerHandshake(step, { query, body: input.body, secrets: endpoint.secrets, verify }) : null
  return { verify, key, keyFrom: found?.where ?? null, arrival, plan: planned, handshake, notInspected: document.notInspected, breakpoint }
}

// An endpoint's default plan is the same for each of its requests: made once per endpoint (an
// edited endpoint is a new object), frozen (the capture codec then writes its JSON once).
const defaultPlans = new WeakMap<Pick<Endpoint, 'forwardTo'>, Plan | null>()

/** No rule matched: an endpoint with forward targets forwards (the first answers, the others get copies). */
export function defaultForwardPlan(endpoint: Pick<Endpoint, 'forwardTo'>): Plan | null {
  const known = defaultPlans.get(endpoint)
  if (known !== undefined) return known
  const [answering, ...copies] = endpoint.forwardTo ?? []
  let plan: Plan | null = null
  if (answering !== undefined) {
    const steps: Step[] = [...copies.map((url): Step => Object.freeze({ type: 'forward-copy', url })), Object.freeze({ type: 'forward', url: answering })]
    plan = Object.freeze({ ruleId: null, steps: Object.freeze(steps) as Step[] })
  }
  defaultPlans.set(endpoint, plan)
  return plan
}
