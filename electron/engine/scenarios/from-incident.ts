// An incident (a HAR or case file, read by exports/incident.ts) as a scenario file `hookloop run`
// plays: the endpoints with their rules (from the case file's setup, or rules that answer as the
// file says we answered), each captured request sent again at its own time by a subscription that
// sends the body as it was (a repeat of the same event id is a `resend`, so the receiver numbers
// it as it did), our sender's deliveries under their own policy, and what was observed as
// expectations — so the scenario fails the day the behaviour changes. Secrets never enter the
// file: they are `${NAME}` placeholders the runner fills (shared/scenario/secret-placeholders.ts);
// a secret the file says differed from its endpoint's is a fresh stand-in. Pure but for those.
import { DEDUPE_PRESETS, type DedupeKey } from '../../../shared/receiver'
import { DECISIONS, DELIVERY_STATUSES, EVENT_ID_RULE, isEventId } from '../../../shared/sender'
import type { ScenarioInput } from '../../../shared/scenario'
import { placeholder, placeholderName } from '../../../shared/scenario'
import { SCHEMES, isSchemeId, type SchemeId } from '../../../shared/signatures'
import type { Step } from '../../../shared/receiver'
import { headerValue } from '../exports'
import type { Incident, IncidentRequest } from '../exports'
import { localName } from '../recorder'
import { eventIdFor, eventTypeOf, faultsFor, senderOutcomeFor, stepFor } from './incident-words'
import { deliveryPlan, isObject, jsonBody, type ArrivalExpectationInput, type EndpointPlan } from './incident-deliveries'
import { eventIdAt, idLocation, locationOfDedupe, recogniseProvider } from './incident-provider'
import { replayedHeaders } from './incident-headers'
import { checkSignature } from './incident-verdicts'

type Expect = NonNullable<ScenarioInput['expect']>
type DeliveryExpect = NonNullable<Expect['deliveries']>[number]
type EndpointExpect = NonNullable<Expect['endpoints']>[number]
type EventInput = NonNullable<ScenarioInput['events']>[number]
type ActionInput = NonNullable<ScenarioInput['actions']>[number]

export interface IncidentScenario {
  scenario: ScenarioInput
  /** What the scenario cannot say exactly as it happened, for the person. */
  notes: string[]
  /** Variable names the run needs (`--secret NAME=…` or the environment). */
  secrets: string[]
}

export class IncidentConversionError extends Error {
  override readonly name = 'IncidentConversionError'
}


const REPLAY_POLICY_BASE = {
  max_attempts: 1,
  schedule: { kind: 'fixed', interval_ms: 60_000 },
  classification: { rules: [{ when: { status_range: [200, 299] }, then: 'succeeded' }], otherwise: 'failed' },
  follow_redirects: 0,
  retry_after: { honour: false, statuses: [429, 503], max_ms: 86_400_000 },
}


function dedupeOf(value: unknown): DedupeKey | null {
  if (typeof value === 'string') return (DEDUPE_PRESETS as Record<string, DedupeKey>)[value] ?? null
  return isObject(value) && typeof value.type === 'string' ? (value as DedupeKey) : null
}

/** The scheme a request was signed with, by its signature header. */
function schemeOfHeaders(requests: readonly IncidentRequest[]): SchemeId | null {
  for (const [id, meta] of Object.entries(SCHEMES)) {
    const header = meta.signatureHeader
    if (header && requests.some((r) => headerValue(r.headers, header) !== undefined)) return id as SchemeId
  }
  return null
}


export interface IncidentOptions {
  name?: string
  source?: string
  /** The secret the captured requests were signed with, to judge them where the file records no verdict (a HAR). */
  secret?: string
  /** Called as the file's requests and deliveries are converted: done of all (a big import shows it). */
  onProgress?: (done: number, total: number) => void
}

export function incidentToScenario(incident: Incident, options: IncidentOptions = {}): IncidentScenario {
  const notes: string[] = []
  const secrets = new Set<string>()
  const endpoints = new Map<string, EndpointPlan>()
  const subscriptions: Record<string, unknown>[] = []
  const takenLocal = new Set<string>()
  const events: EventInput[] = []
  const actions: ActionInput[] = []
  const deliveries: DeliveryExpect[] = []
  /** Steps in the order they happened, timed once all are known. */
  const timed: { raw: number; set: (atMs: number) => void }[] = []
  const setup = incident.setup
  /** Sentences for the scenario's description: what Hookloop recognised in the file. */
  const described: string[] = []
  const local = (name: string) => {
    const out = localName(name, takenLocal)
    takenLocal.add(out)
    return out
  }

  // One local name per setup subscription, however many of its deliveries the file has.
  const subscriptionNames = new Map<Record<string, unknown>, string>()
  const subscriptionLocal = (def: Record<string, unknown>): string => {
    const name = subscriptionNames.get(def) ?? local(String(def.name ?? def.id ?? 'subscription'))
    subscriptionNames.set(def, name)
    return name
  }

  const secretsFor = (slug: string, scheme: SchemeId | null, count: number): string[] => {
    if (scheme === null) return []
    const name = placeholderName(slug)
    secrets.add(name)
    if (count > 1) notes.push(`endpoint ${slug}: its ${count} secrets became one placeholder, ${placeholder(name)} (the run's sender signs with it)`)
    return [placeholder(name)]
  }

  // ------------------------------------------------------------ endpoints from the setup
  const globalRules = setup?.global_rules ?? []
  if (globalRules.length > 0) notes.push(`${globalRules.length} rule(s) for every endpoint were added after each endpoint's own rules (a scenario has rules per endpoint only)`)
  for (const e of setup?.endpoints ?? []) {
    const slug = String(e.slug)
    const scheme = typeof e.scheme === 'string' && isSchemeId(e.scheme) ? e.scheme : null
    const dedupe = dedupeOf(e.dedupe)
    const rules = Array.isArray(e.rules) ? e.rules : []
    endpoints.set(slug, {
      slug,
      definition: { ...e, secrets: secretsFor(slug, scheme, Array.isArray(e.secrets) ? e.secrets.length : 0), rules: [...rules, ...globalRules] },
      scheme,
      idHeader: dedupe?.type === 'header' ? dedupe.name : scheme ? (SCHEMES[scheme].idHeader ?? null) : null,
      idAt: locationOfDedupe(dedupe, scheme),
      provider: null,
      synthesized: false,
      replaySubscription: null,
      arrivals: [],
      requests: 0,
      loopTarget: false,
      fileSecret: Array.isArray(e.secrets) && typeof e.secrets[0] === 'string' ? e.secrets[0] : null,
    })
  }

  // ------------------------------------------------------------ captured requests
  const deliveryEventIds = new Set(incident.deliveries.map((d) => d.eventId).filter((id) => id !== ''))
  const requests = [...incident.requests].sort((a, b) => a.at - b.at)
  const kept: IncidentRequest[] = []
  /** Event id → how our endpoint judged the signatures of its deliveries' attempts, in arrival order. */
  const attemptVerdicts = new Map<string, (string | null)[]>()
  for (const r of requests) {
    // A file's request cannot have its attempt link checked (the key stays with its data folder):
    // the link header together with the event id of one of the file's deliveries says it was one.
    const ofDelivery = headerValue(r.headers, 'x-hookloop-attempt') === undefined ? undefined : r.headers.find(([, v]) => deliveryEventIds.has(v))?.[1]
    if (ofDelivery !== undefined) {
      notes.push(`${r.label} came from one of the file's own deliveries, which the scenario sends again; not sent twice`)
      attemptVerdicts.set(ofDelivery, [...(attemptVerdicts.get(ofDelivery) ?? []), r.verify?.reason ?? null])
      continue
    }
    if (r.endpoint === null && incident.kind === 'case') {
      notes.push(`${r.label} reached no endpoint (an unknown slug); left out`)
      continue
    }
    kept.push(r)
  }
  // Endpoints the file names but does not define: rules are written from what we answered.
  for (const r of kept) {
    const slug = r.endpoint ?? 'incident'
    if (endpoints.has(slug)) continue
    const captured = kept.filter((k) => (k.endpoint ?? 'incident') === slug)
    const scheme = schemeOfHeaders(captured)
    const provider = recogniseProvider(captured)
    const idAt = idLocation(provider?.pack ?? null, scheme, captured)
    if (provider) described.push(`The requests on ${slug} look like ${provider.pack.label} deliveries (${provider.clues.join(', ')}): they are sent again as they were, with ${provider.pack.label}'s event id (${idAt.where}).`)
    endpoints.set(slug, {
      slug,
      definition: { slug, name: `${slug} (answers as recorded)`, scheme, secrets: secretsFor(slug, scheme, 1), dedupe: idAt.dedupe, rules: [] },
      scheme,
      idHeader: idAt.sendHeader,
      idAt,
      provider: provider?.pack.label ?? null,
      synthesized: true,
      replaySubscription: null,
      arrivals: [],
      requests: 0,
      loopTarget: false,
      fileSecret: null,
    })
    notes.push(`endpoint ${slug}: the file carries no rules for it; its rules answer each request as the file says it was answered`)
  }
  // Hookloop keeps the ids it saw; one the scenario cannot carry as it was becomes a UUID made from it.
  const takenIds = new Set(incident.deliveries.map((d) => eventIdFor(d.eventId)))
  let unchecked = 0
  const keptId = (original: string | null, slug: string, key: string, label: string): string => {
    if (original !== null) {
      if (!isEventId(original)) notes.push(`${label}: its event id ${JSON.stringify(original)} cannot be sent as it was (${EVENT_ID_RULE}); a UUID made from it is used`)
      else if (takenIds.has(original)) notes.push(`${label}: event id ${original} is used by another event of the file too; a UUID made from it is used here`)
      else {
        takenIds.add(original)
        return original
      }
    }
    const made = eventIdFor(`${slug}\n${key}`)
    takenIds.add(made)
    return made
  }
  const maxMs = Math.max(0, ...kept.map((r) => r.ms ?? 0))
  const timeoutMs = Math.min(120_000, Math.max(10_000, Math.ceil(maxMs) + 1000))
  /** endpoint slug → group key → the event that first carried it, and the answers it got. */
  const groups = new Map<string, Map<string, { event: string; eventId: string; faulted: boolean; steps: Step[]; arrivals: number; body: string; label: string }>>()
  const progressTotal = kept.length + incident.deliveries.length
  let progressDone = 0
  for (const r of kept) {
    options.onProgress?.(++progressDone, progressTotal)
    const plan = endpoints.get(r.endpoint ?? 'incident')!
    const body = jsonBody(r.body)
    if (!body.ok) {
      notes.push(`${r.label}: its body is not JSON (a scenario event carries JSON); left out`)
      continue
    }
    if (r.method !== 'POST') notes.push(`${r.label} was a ${r.method}; the scenario sends it as a POST`)
    if (plan.replaySubscription === null) {
      plan.replaySubscription = local(`replay-${plan.slug}`)
      // A provider's pack would build the body anew; these bodies are sent as they were, so the
      // subscription names the provider's scheme, id header and headers rather than the provider.
      const headers = plan.synthesized ? replayedHeaders(kept.filter((k) => (k.endpoint ?? 'incident') === plan.slug), plan.scheme, plan.idHeader, notes, plan.slug) : {}
      subscriptions.push({
        id: plan.replaySubscription,
        name: `the requests ${plan.provider ? `${plan.provider} sent to` : 'captured on'} ${plan.slug}, sent again`,
        endpoint: plan.slug,
        scheme: plan.scheme ?? 'standard-webhooks',
        envelope: 'payload',
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(plan.idHeader ? { event_id_header: plan.idHeader } : {}),
        policy: { name: 'one attempt per captured request', ...REPLAY_POLICY_BASE, timeout_ms: timeoutMs },
      })
    }
    const byKey = groups.get(plan.slug) ?? new Map()
    groups.set(plan.slug, byKey)
    const original = plan.idAt ? eventIdAt(plan.idAt, r) : null
    if (original === null) notes.push(`${r.label}: no event id found (${plan.idAt ? `no ${plan.idAt.where}` : 'the endpoint dedupes on no single field'}) — a fresh id is used`)
    const key = original ?? `body:${r.body.toString('utf8')}`
    const group = byKey.get(key)
    if (group && group.body !== r.body.toString('utf8')) notes.push(`${r.label} carried event id ${original ?? ''} again with another body than ${group.label}; the scenario sends ${group.label}'s body again`)
    let verdict = r.verify
    if (verdict === null && plan.synthesized && plan.scheme !== null) {
      if (options.secret === undefined) unchecked++
      else {
        const checked = checkSignature(r, plan.scheme, options.secret)
        if ('verdict' in checked) verdict = checked.verdict
        else notes.push(`${r.label}: signature not checked: ${checked.unchecked}`)
      }
    }
    const reason = verdict?.reason ?? null
    const faults = faultsFor(reason)
    const knownVerdict = verdict !== null && faults !== undefined && (group === undefined ? true : faults.length === 0 && !group.faulted)
    if (verdict !== null && !knownVerdict) notes.push(`${r.label}: its signature verdict ${reason} cannot be made again on purpose; not expected`)
    const exp: DeliveryExpect = { event: '', subscription: plan.replaySubscription, attempts: 1 }
    const outcome = senderOutcomeFor(r.outcome)
    if (outcome !== null) exp.outcomes = [outcome]
    else notes.push(`${r.label}: what our sender sees for "${r.outcome ?? 'an unknown answer'}" is not certain; its outcome is not expected`)
    if (plan.synthesized) {
      const step = stepFor(r.outcome)
      if (step === null) notes.push(`${r.label}: "${r.outcome ?? 'unknown'}" cannot be answered again; the rule answers 200`)
      ;(group?.steps ?? []).push(step ?? { type: 'reply', status: 200 })
    }
    // The receiver's verdict and dedupe number, on the delivery (named in a failure) and on the arrival (in order).
    const arrival: ArrivalExpectationInput = {}
    if (knownVerdict && reason !== null) arrival.signature = exp.signatures = reason
    if (r.duplicate !== undefined && (r.duplicate !== null || !plan.synthesized)) {
      arrival.duplicate = r.duplicate
      exp.duplicates = [r.duplicate]
    } else if (r.duplicate === undefined && plan.synthesized && original !== null) {
      // The file does not number arrivals (a customer's HAR), but the endpoint the scenario makes
      // dedupes on this id: the n-th arrival of it is flagged dup #n, as a deduping receiver did.
      const n = (group?.arrivals ?? 0) + 1
      arrival.duplicate = n
      exp.duplicates = [n]
    }
    if (group) group.arrivals++
    plan.arrivals.push(arrival)
    plan.requests++
    const subscription = plan.replaySubscription
    if (group === undefined) {
      const eventLocal = local(`r${events.length + 1}`)
      const eventId = keptId(original, plan.slug, key, r.label)
      if (eventId === original) {
        if (plan.idAt?.dedupe.type === 'header') arrival.headers = { [plan.idAt.dedupe.name.toLowerCase()]: original }
        else if (plan.idAt?.dedupe.type === 'json-path') arrival.body = { [plan.idAt.dedupe.path]: original }
      }
      const step = plan.synthesized ? (stepFor(r.outcome) ?? { type: 'reply' as const, status: 200 }) : null
      byKey.set(key, { event: eventLocal, eventId, faulted: (faults?.length ?? 0) > 0, steps: step ? [step] : [], arrivals: 1, body: r.body.toString('utf8'), label: r.label })
      const event: EventInput = { id: eventLocal, type: eventTypeOf(body.value, 'request.replayed'), payload: body.value as never, event_id: eventId, subscriptions: [subscription], at_ms: 0, ...(faults && faults.length > 0 ? { faults } : {}) }
      events.push(event)
      exp.event = eventLocal
      timed.push({ raw: r.at, set: (at) => ((event.at_ms = at), (arrival.run_ms = at)) })
    } else {
      const n = actions.filter((a) => a.type === 'resend' && a.event === group.event).length + 1
      const action: ActionInput = { type: 'resend', at_ms: 0, event: group.event, subscription }
      actions.push(action)
      exp.event = group.event
      exp.resend = n
      timed.push({ raw: r.at, set: (at) => ((action.at_ms = at), (arrival.run_ms = at)) })
    }
    deliveries.push(exp)
  }
  if (unchecked > 0) notes.push(`signatures not checked (${unchecked} request${unchecked === 1 ? '' : 's'}): the file holds no secret and no verdicts; pass --secret with the secret they were signed with`)
  // Rules that answer each event's arrivals as recorded, matched by the event id we send.
  for (const [slug, byKey] of groups) {
    const plan = endpoints.get(slug)!
    if (!plan.synthesized || plan.idHeader === null) continue
    for (const group of byKey.values()) {
      plan.definition.rules.push({ name: `${group.event} as recorded`, matchers: [{ type: 'header', name: plan.idHeader, value: group.eventId }], sequence: { items: group.steps } })
    }
  }

  // ------------------------------------------------------------ our sender's deliveries
  let unsettled = false
  const seenEvents = new Map<string, { event: string; subscription: string }>()
  for (const d of incident.deliveries) {
    options.onProgress?.(++progressDone, progressTotal)
    const converted = deliveryPlan(d, setup, endpoints, subscriptionLocal, notes, secrets)
    if (!converted) continue
    const { subscription, payload, idHeader, target, signsWithStandIn } = converted
    if (!subscriptions.some((s) => s.id === subscription.id)) subscriptions.push(subscription)
    const sub = String(subscription.id)
    const attempts = [...d.attempts].sort((a, b) => a.n - b.n)
    const first = attempts[0]!
    const previous = seenEvents.get(`${d.eventId}\n${sub}`)
    const exp: DeliveryExpect = { event: '', subscription: sub, attempts: attempts.length, outcomes: attempts.map((a) => a.outcome) }
    if (d.status !== null && (DELIVERY_STATUSES as readonly string[]).includes(d.status)) exp.status = d.status as DeliveryExpect['status']
    if (d.status === 'pending' || d.status === 'retrying') unsettled = true
    const jitter = isObject(subscription.policy) && isObject(subscription.policy.jitter) && Number(subscription.policy.jitter.ratio ?? 0) > 0
    if (!jitter) {
      exp.at_ms = attempts.map((a) => a.at - first.at)
      // Attempt times on a real clock carry the machine's timer drift; the run's clock has none.
      exp.tolerance_ms = 1000
    }
    if (attempts.every((a) => (DECISIONS as readonly string[]).includes(a.decision ?? ''))) exp.decisions = attempts.map((a) => a.decision as (typeof DECISIONS)[number])
    // Signed with a secret its endpoint did not verify with: every attempt failed the check, and must again.
    if (signsWithStandIn && target.scheme !== null) exp.signatures = 'signature_mismatch'
    // How the endpoint judged each attempt, from the file's requests those attempts made.
    const verdicts = attempts.map(() => attemptVerdicts.get(d.eventId)?.shift() ?? null)
    const verdict = verdicts.every((v) => v !== null && v === verdicts[0]) ? verdicts[0]! : null
    if (target.synthesized && idHeader) {
      const steps = attempts.map((a) => stepFor(a.outcome === 'timeout' ? 'timed_out' : a.outcome))
      if (steps.some((s) => s === null)) notes.push(`${d.label}: an attempt's outcome cannot be answered again by an endpoint; it answers 200 instead`)
      target.definition.rules.push({ name: `${d.label} as its target answered`, matchers: [{ type: 'header', name: idHeader, value: eventIdFor(d.eventId) }], sequence: { items: steps.map((s) => s ?? { type: 'reply', status: 200 }) } })
    }
    target.loopTarget = true
    target.requests += attempts.length
    if (previous) {
      // The same event again (a duplicate or a resend): the scenario resends it.
      const n = actions.filter((a) => a.type === 'resend' && a.event === previous.event && a.subscription === sub).length + 1
      const action: ActionInput = { type: 'resend', at_ms: 0, event: previous.event, subscription: sub }
      actions.push(action)
      exp.event = previous.event
      exp.resend = n
      // A resend carries no send fault: only a verdict it gets without one can be expected.
      if (verdict === 'ok' && !signsWithStandIn) exp.signatures = 'ok'
      else if (verdict !== null && verdict !== 'ok') notes.push(`${d.label}: its signature verdict ${verdict} cannot be made again on a resend; not expected`)
      notes.push(`${d.label} sent event ${d.eventId} again; the scenario resends it`)
      timed.push({ raw: first.at, set: (at) => (action.at_ms = at) })
    } else {
      const eventLocal = local(`d${events.length + 1}`)
      seenEvents.set(`${d.eventId}\n${sub}`, { event: eventLocal, subscription: sub })
      // The verdict the endpoint gave, made again by a send fault (a wrong secret, a stale timestamp …).
      const faults = verdict === null || signsWithStandIn ? undefined : faultsFor(verdict)
      if (faults !== undefined) exp.signatures = verdict!
      else if (verdict !== null && !signsWithStandIn) notes.push(`${d.label}: its signature verdict ${verdict} cannot be made again on purpose; not expected`)
      const event: EventInput = { id: eventLocal, type: d.eventType ?? eventTypeOf(payload, 'event'), payload: payload as never, event_id: eventIdFor(d.eventId), subscriptions: [sub], at_ms: 0, ...(faults && faults.length > 0 ? { faults } : {}) }
      events.push(event)
      exp.event = eventLocal
      timed.push({ raw: first.at, set: (at) => (event.at_ms = at) })
    }
    deliveries.push(exp)
  }
  if (incident.kind === 'har' && incident.deliveries.length > 0 && !setup) notes.push('a HAR does not carry a subscription\'s policy: export a case file to turn deliveries into a scenario')

  if (events.length === 0) throw new IncidentConversionError(`nothing in the file can be sent again${notes.length > 0 ? `: ${notes.join('; ')}` : ''}`)

  // One step per ms at least, in the order they happened: at one instant a run starts its timers
  // in file order, and a resend must come after its event.
  const t0 = Math.min(...timed.map((t) => t.raw))
  let last = -1
  for (const t of [...timed].sort((a, b) => a.raw - b.raw)) {
    last = Math.max(Math.round(t.raw - t0), last + 1)
    t.set(last)
  }
  // The file reads in time order too (sort is stable: at one instant, the order they happened).
  events.sort((a, b) => (a.at_ms ?? 0) - (b.at_ms ?? 0))
  actions.sort((a, b) => a.at_ms - b.at_ms)

  const endpointExpectations: EndpointExpect[] = []
  for (const plan of endpoints.values()) {
    if (plan.requests === 0) continue
    if (plan.loopTarget) {
      if (!unsettled) endpointExpectations.push({ endpoint: plan.slug, requests: plan.requests })
    } else endpointExpectations.push({ endpoint: plan.slug, requests: plan.requests, arrivals: plan.arrivals })
  }
  const used = new Set(subscriptions.map((s) => String(s.endpoint ?? '')))
  const endpointDefs = [...endpoints.values()].filter((p) => used.has(p.slug)).map((p) => p.definition)
  const source = options.source ?? `a ${incident.kind === 'har' ? 'HAR' : 'case'} file`
  const scenario: ScenarioInput = {
    version: 1,
    name: options.name ?? `Incident from ${source}`,
    description:
      `Made by Hookloop from ${source}: its requests are sent again in their order and timing, and what was observed then is expected.` +
      (secrets.size > 0 ? ` Secrets are placeholders: run with ${[...secrets].map((s) => `--secret ${s}=…`).join(' ')} (any secret in the scheme's format: both sides of the run use it).` : '') +
      described.map((d) => ` ${d}`).join(''),
    clock: { mode: 'virtual', start: new Date(t0).toISOString() },
    ...(unsettled ? { max_duration_ms: last + 1 } : {}),
    endpoints: endpointDefs as never,
    subscriptions: subscriptions as never,
    events,
    ...(actions.length > 0 ? { actions } : {}),
    expect: { deliveries, endpoints: endpointExpectations },
  }
  if (unsettled) notes.push('a delivery was still retrying when the file was made: the run stops at the last moment the file knows')
  // The notes travel with the file: whoever runs it later reads what it could not keep.
  if (notes.length > 0) scenario.description = `${scenario.description ?? ''} Notes from the import: ${notes.join('; ')}.`
  return { scenario, notes, secrets: [...secrets] }
}
