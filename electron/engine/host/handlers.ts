// The contract's commands on endpoints, rules, subscriptions, events and the clock, done by the
// engine. Each handler gets a request its schema already checked; engine errors become command
// errors in one place (host-error.ts).
import { randomBytes } from 'node:crypto'
import type { Snapshot, SubscriptionView } from '../../../shared/contract'
import { endpointDefinition, RULE_PRESETS } from '../../../shared/receiver'
import { SCHEME_IDS } from '../../../shared/signatures'
import { packSubscription } from '../providers'
import { sendPayload } from './event-send'
import type { StagedBodies } from './body-routes'
import type { CommandHandlers } from './control-server'
import { secretHint } from './detail-views'
import { HostError } from './host-error'
import { forwardToRefusal } from './handlers-forward'
import { breakpointList } from './handlers-breakpoints'
import { endpointViews, presetViews, ruleViews, simulationViews, subscriptionView, tunnelView, type EngineBinding } from './views'

export type { EngineBinding }

export interface HandlerContext {
  /** The engine as it is now (switching the clock mode rebuilds it). */
  current(): EngineBinding
  /** `label` names the simulation a virtual or scaled clock starts (docs/time.md). */
  switchClock(mode: 'real' | 'scaled' | 'virtual', scale: number, label?: string): Promise<void>
  clockView(): Snapshot['clock']
  warnings(): Promise<string[]>
  /** Something the UIs list changed: push the new list to every UI. */
  changed(what: 'endpoints' | 'rules' | 'subscriptions'): void
  /** The subscriptions with their metrics, as last computed. */
  subscriptions(): Promise<SubscriptionView[]>
  touchDelivery(id: number): void
  recording(): Snapshot['recording']
  scenarioRun(): Snapshot['scenarioRun']
  /** Bodies uploaded over HTTP for a resend (body-routes.ts), taken by `request.resend`. */
  uploads: StagedBodies
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

/** The commands on endpoints, rules, subscriptions, events and the clock. */
export function createHandlers(ctx: HandlerContext, loopTry: CommandHandlers['loop.try']) {
  const notFound = (what: string): never => {
    throw new HostError('not_found', `${what} does not exist`)
  }
  return {
    snapshot: async () => {
      const binding = ctx.current()
      return {
        endpoints: await endpointViews(binding),
        rules: ruleViews(binding),
        subscriptions: await ctx.subscriptions(),
        tunnel: tunnelView(binding.engine),
        clock: ctx.clockView(),
        simulations: await simulationViews(ctx.current().engine),
        receiverUrl: binding.engine.receiver.url,
        ...presetViews(),
        schemes: [...SCHEME_IDS],
        warnings: await ctx.warnings(),
        recording: ctx.recording(),
        scenarioRun: ctx.scenarioRun(),
        breakpoints: breakpointList(binding.engine.receiver),
        // Without accounts every caller may; with them the workspace scope says (workspace-scope.ts).
        storeWide: true,
      }
    },
    // With accounts, the caller's workspace's rows only.
    'timeline.page': (req, caller) => ctx.current().timeline.page({ ...req.filter, ...(caller.workspace === undefined ? {} : { workspace: caller.workspace }) }, req.offset, req.limit),
    'delivery.get': async (req) => (await ctx.current().details.deliveryDetail(req.id)) ?? notFound(`delivery #${req.id}`),
    'request.get': async (req) => (await ctx.current().details.requestDetail(req.id)) ?? notFound(`request #${req.id}`),
    'delivery.retryNow': async (req) => {
      await ctx.current().engine.sender.retryNow(req.id)
      ctx.touchDelivery(req.id)
      return { ok: true as const }
    },
    'delivery.replay': async (req) => {
      // The same payload again, as a new event signed afresh with the subscription's current secret.
      const { engine } = ctx.current()
      const { delivery } = await engine.sender.getDelivery(req.id)
      const sent = await engine.sender.viewPayload(req.id)
      // The stored payload, whatever envelope the subscription sends it in.
      let payload: unknown
      try {
        payload = JSON.parse(sent.payload.toString('utf8')) as unknown
      } catch {
        throw new HostError('bad_request', `delivery #${req.id} has no JSON payload; it cannot be replayed`)
      }
      const result = await engine.sender.publish({ eventType: sent.eventType, payload, subscriptionIds: [delivery.subscriptionId] })
      const id = result.deliveries[0]?.id
      if (id === undefined) throw new HostError('internal', 'the replay created no delivery')
      return { deliveryId: id }
    },
    // With accounts, made in the caller's workspace.
    'endpoint.create': async (req, caller) => {
      const binding = ctx.current()
      const { receiver } = binding.engine
      const existing = new Set(receiver.endpoints.list().map((e) => e.slug))
      if (req.slug && existing.has(req.slug)) throw new HostError('conflict', `an endpoint already answers at /h/${req.slug}`)
      const slug = req.slug ?? slugify(req.name, (s) => existing.has(s))
      let endpoint
      try {
        endpoint = await receiver.endpoints.create({ slug, name: req.name, scheme: req.scheme, secrets: req.secrets, dedupe: req.dedupe, ...(req.forwardTo?.length ? { forward_to: req.forwardTo } : {}) }, caller.workspace)
      } catch (error) {
        throw forwardToRefusal('endpoint.create', error)
      }
      ctx.changed('endpoints')
      return (await endpointViews(binding)).find((e) => e.id === endpoint.id) ?? notFound(`endpoint ${endpoint.id}`)
    },
    'endpoint.setDedupe': async (req) => {
      const binding = ctx.current()
      const { endpoints } = binding.engine.receiver
      const endpoint = endpoints.get(req.id) ?? notFound(`endpoint ${req.id}`)
      await endpoints.update(req.id, { ...endpointDefinition(endpoint), dedupe: req.dedupe })
      ctx.changed('endpoints')
      return (await endpointViews(binding)).find((e) => e.id === req.id) ?? notFound(`endpoint ${req.id}`)
    },
    'endpoint.delete': async (req) => {
      if (!(await ctx.current().engine.receiver.endpoints.delete(req.id))) notFound(`endpoint ${req.id}`)
      ctx.changed('endpoints')
      ctx.changed('rules')
      return { ok: true as const }
    },
    'rule.addPreset': async (req, caller) => {
      const binding = ctx.current()
      // The catalog's defaults, then what the person set; a seeded preset gets a fresh seed.
      const { parameters = [], seeded, target } = RULE_PRESETS.entries[req.preset]
      // A fault around the app forwards to the endpoint's own target ("Forward to your app").
      const url = target ? binding.engine.receiver.endpoints.get(req.endpointId)?.forwardTo?.[0] : undefined
      if (target && !url) throw new HostError('bad_request', `rule.addPreset: ${req.preset} forwards to your app: set the endpoint's forward target first`)
      const input = {
        preset: req.preset,
        ...Object.fromEntries(parameters.map((p) => [p.name, p.default])),
        ...req.parameters,
        ...(seeded ? { seed: randomBytes(4).readUInt32BE() & 0x7fffffff } : {}),
        ...(url ? { url } : {}),
      }
      // With accounts, a rule for every endpoint would be the caller's workspace's.
      const rule = await binding.engine.receiver.rules.add(req.endpointId, input, caller.workspace === undefined ? {} : { workspaceId: caller.workspace })
      ctx.changed('rules')
      return ruleViews(binding).find((r) => r.id === rule.id) ?? notFound(`rule ${rule.id}`)
    },
    'rule.update': async (req) => {
      const binding = ctx.current()
      const rule = await binding.engine.receiver.rules.update(req.id, req.definition, req.revision)
      ctx.changed('rules')
      return ruleViews(binding).find((r) => r.id === rule.id) ?? notFound(`rule ${rule.id}`)
    },
    'rule.setEnabled': async (req) => {
      if (!(await ctx.current().engine.receiver.rules.enable(req.id, req.enabled))) notFound(`rule ${req.id}`)
      ctx.changed('rules')
      return { ok: true as const }
    },
    'rule.move': async (req) => {
      if (!(await ctx.current().engine.receiver.rules.reorder(req.id, req.position))) notFound(`rule ${req.id}`)
      ctx.changed('rules')
      return { ok: true as const }
    },
    'rule.delete': async (req) => {
      if (!(await ctx.current().engine.receiver.rules.delete(req.id))) notFound(`rule ${req.id}`)
      ctx.changed('rules')
      return { ok: true as const }
    },
    'subscription.create': async (req, caller) => {
      const { engine } = ctx.current()
      let target: { url: string } | { endpoint: string }
      if ('url' in req.target) target = { url: req.target.url }
      else {
        const endpointId = req.target.endpointId
        const endpoint = engine.receiver.endpoints.get(endpointId) ?? notFound(`endpoint ${endpointId}`)
        target = { endpoint: endpoint.slug }
      }
      const secrets = req.secret ? { secrets: [req.secret] } : {}
      const created = await engine.sender.createSubscription(
        req.provider
          ? {
              ...packSubscription(req.provider, { name: req.name, target, ...secrets, ...(req.policyId ? { policy: req.policyId } : {}), ...(req.apiVersion ? { apiVersion: req.apiVersion } : {}) }),
              ...(req.scheme ? { scheme: req.scheme } : {}),
            }
          : {
              name: req.name,
              target,
              scheme: req.scheme!,
              policy: req.policyId!,
              ...secrets,
              ...(req.envelope ? { envelope: req.envelope } : {}),
            },
        caller.workspace,
      )
      ctx.changed('subscriptions')
      return (await ctx.subscriptions()).find((s) => s.id === created.id) ?? (await subscriptionView(ctx.current(), created))
    },
    'subscription.setPaused': async (req) => {
      const { sender } = ctx.current().engine
      if (req.paused) await sender.pause(req.id)
      else await sender.resume(req.id)
      ctx.changed('subscriptions')
      return { ok: true as const }
    },
    'subscription.rotateSecret': async (req) => {
      const secret = await ctx.current().engine.sender.rotateSecret(req.id)
      ctx.changed('subscriptions')
      return { secretHint: secretHint(secret) }
    },
    'event.send': async (req) => {
      const { engine } = ctx.current()
      const payloadOf = sendPayload(engine, req)
      const eventIds: string[] = []
      const deliveryIds: number[] = []
      for (let i = 0; i < req.count; i++) {
        const sent = await engine.sendEvent({ subscriptionIds: [req.subscriptionId], eventType: req.eventType, payload: payloadOf(), faults: req.faults.map((type) => ({ type })) })
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
  } satisfies Partial<CommandHandlers>
}
