// The contract's commands, done by the engine. Each handler gets a request its schema already
// checked; engine errors become HostErrors with a code the UI can act on.
import { randomBytes } from 'node:crypto'
import type { EndpointView, RuleView, Snapshot, SubscriptionView, TunnelView } from '../../../shared/contract'
import type { HistoryCommandName } from '../../../shared/contract-history'
import { expectedSchedule } from '../../../shared/policy'
import { isPolicyPresetId, POLICY_PRESETS, POLICY_PRESET_IDS } from '../../../shared/policy-presets'
import { DefinitionError } from '../../../shared/receiver-errors'
import { SCHEME_IDS } from '../../../shared/signatures'
import type { TunnelState } from '../../../shared/tunnel'
import type { Engine } from '../engine'
import { SenderError } from '../sender'
import type { Subscription } from '../sender'
import type { CommandHandlers } from './control-server'
import { secretHint, type DetailsRead } from './details-read'
import { HostError } from './host-error'
import type { TimelineRead } from './timeline-read'

export interface EngineBinding {
  engine: Engine
  timeline: TimelineRead
  details: DetailsRead
}

export interface HandlerContext {
  /** The engine as it is now (switching the clock mode rebuilds it). */
  current(): EngineBinding
  switchClock(mode: 'real' | 'scaled' | 'virtual', scale: number): Promise<void>
  clockView(): Snapshot['clock']
  warnings(): string[]
  /** Something the UIs list changed: push the new list to every UI. */
  changed(what: 'endpoints' | 'rules' | 'subscriptions'): void
  /** The subscriptions with their metrics, as last computed. */
  subscriptions(): SubscriptionView[]
  touchDelivery(id: number): void
  recording(): Snapshot['recording']
  scenarioRun(): Snapshot['scenarioRun']
}

export const RULE_PRESETS: Snapshot['rulePresets'] = [
  { id: 'fail-first', label: 'Fail first N, then 200', description: 'Answer 503 to the first N arrivals of each event id, then 200' },
  { id: 'always-500', label: 'Always 500', description: 'Answer 500 to every request' },
  { id: 'always-410', label: 'Always 410', description: 'Answer 410 Gone: a final 4xx for most senders' },
  { id: 'timeout-once', label: 'Timeout once', description: 'Hold the first arrival of each event id open without answering, then 200' },
  { id: 'chaos', label: 'Chaos 30 %', description: 'Answer 503 to a seeded 30 % of requests' },
  { id: 'slow', label: 'Slow 11 s', description: "Answer 200 after 11 s: past provider A's 10 s timeout" },
]

const POLICY_LABELS: Record<string, string> = {
  pandoktorek: 'Provider A (pandoktorek)',
  csku: 'Provider B (csku)',
  'standard-webhooks': 'Standard Webhooks',
  svix: 'Svix',
  stripe: 'Stripe',
  github: 'GitHub (no retries)',
  shopify: 'Shopify',
  custom: 'Custom',
}

export function policyPresets(): Snapshot['policyPresets'] {
  return POLICY_PRESET_IDS.filter((id) => id !== 'custom').map((id) => {
    const policy = POLICY_PRESETS[id]
    return {
      id,
      label: POLICY_LABELS[id] ?? id,
      description: policy.source ?? '',
      schedule: expectedSchedule(policy).map((a) => a.at_ms),
      timeoutMs: policy.timeout_ms,
    }
  })
}

export function tunnelView(engine: Engine): TunnelView {
  const tunnel = engine.tunnel
  if (!tunnel) return { state: 'disabled' }
  return toTunnelView(tunnel.state)
}

export function toTunnelView(state: TunnelState): TunnelView {
  switch (state.kind) {
    case 'stopped':
      return { state: 'stopped' }
    case 'connecting':
      return { state: 'connecting' }
    case 'online':
      return { state: 'online', url: state.url }
    case 'degraded':
      return { state: 'degraded', url: state.url, liveSockets: state.liveSockets, maxSockets: state.maxSockets }
    case 'reconnecting':
      // Wall time: the UI counts down on the person's clock.
      return { state: 'reconnecting', attempt: state.attempt, nextAt: Date.now() + state.nextInMs, lastError: state.lastError }
    case 'offline':
      return { state: 'offline', reason: state.reason }
    default: {
      const never: never = state
      return never
    }
  }
}

export function endpointViews(binding: EngineBinding): EndpointView[] {
  return binding.details.endpointViews()
}

export function ruleViews(binding: EngineBinding): RuleView[] {
  return binding.engine.receiver.rules.list().map((r) => ({
    id: r.id,
    endpointId: r.endpointId,
    position: r.position,
    enabled: r.enabled,
    explain: r.explain,
    definition: r.rule,
  }))
}

export function subscriptionViews(binding: EngineBinding, quick = false): SubscriptionView[] {
  const { engine } = binding
  return engine.sender.listSubscriptions().map((s) => subscriptionView(engine, s, quick ? binding.details.quickMetrics : undefined))
}

function subscriptionView(engine: Engine, s: Subscription, quick?: DetailsRead['quickMetrics']): SubscriptionView {
  // Quick: from the deliveries table alone, while the exact attempt-level counts are computed.
  const metrics = quick ? { ...quick(s.id), duplicates: 0 } : engine.sender.metrics(s.id)
  const rate = engine.sender.failureRate(s.id)
  const policyId = isPolicyPresetId(s.policy.name) ? s.policy.name : 'custom'
  return {
    id: s.id,
    name: s.name,
    url: 'url' in s.target ? s.target.url : engine.endpointUrl(s.target.endpoint),
    scheme: s.scheme,
    secretHints: s.secret ? [secretHint(s.secret)] : [],
    policyId,
    policyLabel: POLICY_LABELS[policyId] ?? s.policy.name,
    envelope: s.envelope,
    paused: s.paused,
    metrics: {
      deliveries: rate.total,
      attempts: metrics.attempts,
      successes: metrics.successes,
      failures: metrics.failures,
      duplicates: metrics.duplicates,
      failureRate24h: rate.rate,
      ...(quick ? { counting: true } : {}),
    },
  }
}

/** Engine errors → HostErrors with a code; anything else stays an internal error. */
export function asHostError(error: unknown): unknown {
  if (error instanceof HostError) return error
  if (error instanceof SenderError) {
    switch (error.code) {
      case 'not_found':
        return new HostError('not_found', error.message)
      case 'conflict':
      case 'in_flight':
        return new HostError('conflict', error.message)
      case 'invalid_event':
      case 'invalid_subscription':
        return new HostError('bad_request', error.message)
      case 'stopped':
        return new HostError('unavailable', error.message)
      default: {
        const never: never = error.code
        return never
      }
    }
  }
  if (error instanceof DefinitionError) return new HostError('bad_request', error.message)
  return error
}

export function slugify(name: string, taken: (slug: string) => boolean): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'endpoint'
  let slug = base
  for (let i = 2; taken(slug) && i < 10_000; i++) slug = `${base}-${i}`
  return slug
}

function wrap<H extends Record<string, (req: never) => unknown>>(handlers: H): H {
  const out = {} as Record<string, (req: never) => unknown>
  for (const [name, handler] of Object.entries(handlers)) {
    out[name] = async (req: never) => {
      try {
        return await handler(req)
      } catch (error) {
        throw asHostError(error)
      }
    }
  }
  return out as H
}

/** Commands handled in handlers-qa.ts (recording, scenario runs, tunnel, checks). */
export type QaCommandName =
  | 'record.start'
  | 'record.stop'
  | 'scenario.run'
  | 'scenario.cancel'
  | 'tunnel.start'
  | 'tunnel.stop'
  | 'check.consumer'
  | 'check.sender'
  | 'export.selection'
  | 'import.replay'
export type CoreHandlers = Omit<CommandHandlers, QaCommandName | HistoryCommandName>

export function createHandlers(ctx: HandlerContext, loopTry: CommandHandlers['loop.try']): CoreHandlers {
  const notFound = (what: string): never => {
    throw new HostError('not_found', `${what} does not exist`)
  }
  return wrap<CoreHandlers>({
    snapshot: () => {
      const binding = ctx.current()
      return {
        endpoints: endpointViews(binding),
        rules: ruleViews(binding),
        subscriptions: ctx.subscriptions(),
        tunnel: tunnelView(binding.engine),
        clock: ctx.clockView(),
        receiverUrl: binding.engine.receiver.url,
        rulePresets: RULE_PRESETS,
        policyPresets: policyPresets(),
        schemes: [...SCHEME_IDS],
        warnings: ctx.warnings(),
        recording: ctx.recording(),
        scenarioRun: ctx.scenarioRun(),
      }
    },
    'timeline.page': (req) => ctx.current().timeline.page(req.filter ?? {}, req.offset, req.limit),
    'delivery.get': (req) => ctx.current().details.deliveryDetail(req.id) ?? notFound(`delivery #${req.id}`),
    'request.get': (req) => ctx.current().details.requestDetail(req.id) ?? notFound(`request #${req.id}`),
    'delivery.retryNow': (req) => {
      ctx.current().engine.sender.retryNow(req.id)
      ctx.touchDelivery(req.id)
      return { ok: true as const }
    },
    'delivery.replay': (req) => {
      // The same payload again, as a new event signed afresh with the subscription's current secret.
      const { engine } = ctx.current()
      const { delivery } = engine.sender.getDelivery(req.id)
      const sent = engine.sender.viewPayload(req.id)
      // The stored payload, whatever envelope the subscription sends it in.
      let payload: unknown
      try {
        payload = JSON.parse(sent.payload.toString('utf8')) as unknown
      } catch {
        throw new HostError('bad_request', `delivery #${req.id} has no JSON payload; it cannot be replayed`)
      }
      const result = engine.sender.publish({ event_type: sent.event_type, payload, subscription_ids: [delivery.subscription_id] })
      const id = result.deliveries[0]?.id
      if (id === undefined) throw new HostError('internal', 'the replay created no delivery')
      return { deliveryId: id }
    },
    'endpoint.create': (req) => {
      const binding = ctx.current()
      const { receiver } = binding.engine
      const existing = new Set(receiver.endpoints.list().map((e) => e.slug))
      if (req.slug && existing.has(req.slug)) throw new HostError('conflict', `an endpoint already answers at /h/${req.slug}`)
      const slug = req.slug ?? slugify(req.name, (s) => existing.has(s))
      const dedupe =
        req.dedupe.kind === 'none'
          ? null
          : req.dedupe.kind === 'header'
            ? { type: 'header', name: req.dedupe.value.trim() }
            : req.dedupe.kind === 'json-path'
              ? { type: 'json-path', path: req.dedupe.value.trim() }
              : { type: 'template', template: req.dedupe.value }
      const endpoint = receiver.endpoints.create({ slug, name: req.name, scheme: req.scheme, secrets: req.secrets, dedupe })
      ctx.changed('endpoints')
      return endpointViews(binding).find((e) => e.id === endpoint.id) ?? notFound(`endpoint ${endpoint.id}`)
    },
    'endpoint.delete': (req) => {
      if (!ctx.current().engine.receiver.endpoints.delete(req.id)) notFound(`endpoint ${req.id}`)
      ctx.changed('endpoints')
      ctx.changed('rules')
      return { ok: true as const }
    },
    'rule.addPreset': (req) => {
      const binding = ctx.current()
      const input =
        req.preset === 'fail-first'
          ? { preset: 'fail-first', n: req.n ?? 3 }
          : req.preset === 'chaos'
            ? { preset: 'chaos', seed: randomBytes(4).readUInt32BE() & 0x7fffffff }
            : { preset: req.preset }
      const rule = binding.engine.receiver.rules.add(req.endpointId, input)
      ctx.changed('rules')
      return ruleViews(binding).find((r) => r.id === rule.id) ?? notFound(`rule ${rule.id}`)
    },
    'rule.update': (req) => {
      const binding = ctx.current()
      const rule = binding.engine.receiver.rules.update(req.id, req.definition)
      ctx.changed('rules')
      return ruleViews(binding).find((r) => r.id === rule.id) ?? notFound(`rule ${rule.id}`)
    },
    'rule.setEnabled': (req) => {
      if (!ctx.current().engine.receiver.rules.enable(req.id, req.enabled)) notFound(`rule ${req.id}`)
      ctx.changed('rules')
      return { ok: true as const }
    },
    'rule.move': (req) => {
      if (!ctx.current().engine.receiver.rules.reorder(req.id, req.position)) notFound(`rule ${req.id}`)
      ctx.changed('rules')
      return { ok: true as const }
    },
    'rule.delete': (req) => {
      if (!ctx.current().engine.receiver.rules.delete(req.id)) notFound(`rule ${req.id}`)
      ctx.changed('rules')
      return { ok: true as const }
    },
    'subscription.create': (req) => {
      const { engine } = ctx.current()
      if (!isPolicyPresetId(req.policyId)) throw new HostError('bad_request', `subscription.create: policyId: unknown policy "${req.policyId}" (one of ${POLICY_PRESET_IDS.join(', ')})`)
      let target: { url: string } | { endpoint: string }
      if ('url' in req.target) target = { url: req.target.url }
      else {
        const endpointId = req.target.endpointId
        const endpoint = engine.receiver.endpoints.get(endpointId) ?? notFound(`endpoint ${endpointId}`)
        target = { endpoint: endpoint.slug }
      }
      const created = engine.sender.createSubscription({
        name: req.name,
        target,
        scheme: req.scheme,
        policy: req.policyId,
        ...(req.secret ? { secrets: [req.secret] } : {}),
        ...(req.envelope ? { envelope: req.envelope } : {}),
      })
      ctx.changed('subscriptions')
      return ctx.subscriptions().find((s) => s.id === created.id) ?? subscriptionView(engine, created)
    },
    'subscription.setPaused': (req) => {
      const { sender } = ctx.current().engine
      if (req.paused) sender.pause(req.id)
      else sender.resume(req.id)
      ctx.changed('subscriptions')
      return { ok: true as const }
    },
    'subscription.rotateSecret': (req) => {
      const secret = ctx.current().engine.sender.rotateSecret(req.id)
      ctx.changed('subscriptions')
      return { secretHint: secretHint(secret) }
    },
    'event.send': async (req) => {
      const { engine } = ctx.current()
      const payload = JSON.parse(req.payload) as unknown
      const eventIds: string[] = []
      const deliveryIds: number[] = []
      for (let i = 0; i < req.count; i++) {
        const sent = await engine.sendEvent({ subscriptionIds: [req.subscriptionId], eventType: req.eventType, payload, faults: req.faults.map((type) => ({ type })) })
        eventIds.push(sent.eventId)
        deliveryIds.push(...sent.deliveryIds)
      }
      return { eventIds, deliveryIds }
    },
    'clock.set': async (req) => {
      await ctx.switchClock(req.mode, req.scale ?? 60)
      return ctx.clockView()
    },
    'loop.try': loopTry,
  })
}
