// The lists every UI shows, built from the engine as it is now: endpoints, rules, subscriptions
// with their metrics, the tunnel, and the preset catalogs.
import type { EndpointView, RuleView, SimulationView, Snapshot, SubscriptionView, TunnelView } from '../../../shared/contract'
import { expectedSchedule, isPolicyPresetId, POLICY_CATALOG, POLICY_PRESETS } from '../../../shared/sender'
import { DEDUPE_CATALOG, RULE_PRESETS, HANDSHAKES, handshakeNeedsSecret } from '../../../shared/receiver'
import type { TunnelState } from '../../../shared/tunnel'
import { PROVIDERS } from '../../../shared/providers'
import { SCHEMES } from '../../../shared/signatures'
import { isAsymmetricFormat, publicKeyText } from '../signatures'
import type { Engine } from '../engine'
import type { Subscription } from '../sender'
import { simulationsWithRows, type CountReadsOn, type SimulationRow } from '../store'
import { secretHint, type DetailViews } from './detail-views'
import type { TimelineViews } from './timeline-views'

export interface EngineBinding {
  engine: Engine
  timeline: TimelineViews
  details: DetailViews
  counts: CountReadsOn
  /** Wall time, ms: what the 24 h failure badge looks back from. */
  wallNow(): number
}

/** The catalogs as the snapshot carries them. */
export function presetViews(): Pick<Snapshot, 'rulePresets' | 'policyPresets' | 'dedupePresets' | 'handshakes'> {
  return {
    rulePresets: RULE_PRESETS.views((e) => ({ target: e.target ?? false })),
    policyPresets: POLICY_CATALOG.views((_, id) => {
      const policy = POLICY_PRESETS[id]
      return { schedule: expectedSchedule(policy).map((a) => a.at_ms), timeoutMs: policy.timeout_ms }
    }).filter((p) => !POLICY_CATALOG.entries[p.id].fileOnly),
    dedupePresets: DEDUPE_CATALOG.views((e) => ({ key: e.key })),
    handshakes: HANDSHAKES.views((e, id) => ({ provider: e.provider, needsSecret: handshakeNeedsSecret(id), answerSecret: e.answerSecret, answer: e.answer })),
  }
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

export function endpointViews(binding: EngineBinding): Promise<EndpointView[]> {
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
    revision: r.revision,
  }))
}

export function subscriptionViews(binding: EngineBinding, quick = false): Promise<SubscriptionView[]> {
  return Promise.all(binding.engine.sender.listSubscriptions().map((s) => subscriptionView(binding, s, quick)))
}

/** The view with its 24 h badge counted again (the window moves with the wall clock; nothing else does). */
export async function withFailureWindow(binding: EngineBinding, view: SubscriptionView): Promise<SubscriptionView> {
  const window = await binding.counts.failureWindow(view.id, binding.wallNow())
  const m = view.metrics
  if (m.deliveries24h === window.deliveries && m.failed24h === window.failed) return view
  return { ...view, metrics: { ...m, deliveries24h: window.deliveries, failed24h: window.failed, failureRate24h: window.rate } }
}

/** The public key a key-pair scheme's consumer verifies with (what the app's settings take). */
function verifyKeyOf(s: Subscription): string | null {
  const format = SCHEMES[s.scheme].secretFormat
  if (!s.secret || !isAsymmetricFormat(format)) return null
  const key = publicKeyText(s.secret, format)
  return typeof key === 'string' ? key : null
}

/**
 * A subscription with its figures, each counted by its one definition (store/counts.ts). Quick:
 * the deliveries table alone (one row per delivery), while the attempt-level counts are computed.
 */
export async function subscriptionView(binding: EngineBinding, s: Subscription, quick = false): Promise<SubscriptionView> {
  const { engine, counts } = binding
  const policyId = isPolicyPresetId(s.policy.name) ? s.policy.name : 'custom'
  const outside = 'url' in s.target
  // Wall time: the badge is about the last 24 h a person lived through, whatever a simulation's clock says.
  const [deliveries, window, exact, duplicates] = await Promise.all([
    counts.deliveries(s.id),
    counts.failureWindow(s.id, binding.wallNow()),
    quick ? null : counts.attempts(s.id),
    outside || quick ? null : counts.duplicates(s.id),
  ])
  const attempts = exact ?? { attempts: deliveries.attemptsMade, successes: 0, failures: 0 }
  return {
    id: s.id,
    name: s.name,
    url: 'url' in s.target ? s.target.url : engine.endpointUrl(s.target.endpoint),
    scheme: s.scheme,
    secretHints: s.secret ? [secretHint(s.secret)] : [],
    verifyKey: verifyKeyOf(s),
    policyId,
    policyLabel: POLICY_CATALOG.entries[policyId].label,
    envelope: s.envelope,
    provider: s.provider,
    apiVersion: s.apiVersion ?? (s.provider ? (PROVIDERS[s.provider].apiVersions?.[0] ?? null) : null),
    paused: s.paused,
    metrics: {
      deliveries: deliveries.deliveries,
      byStatus: deliveries.byStatus,
      attempts: attempts.attempts,
      successes: attempts.successes,
      failures: attempts.failures,
      duplicates: outside ? null : (duplicates ?? 0),
      deliveries24h: window.deliveries,
      failed24h: window.failed,
      failureRate24h: window.rate,
      ...(quick ? { counting: true } : {}),
    },
  }
}

/** The simulations the store holds rows of (and the one this engine runs), newest first: the clock picker's list. */
export async function simulationViews(engine: Engine, limit = 50): Promise<SimulationView[]> {
  return (await simulationsWithRows(engine.store.engine, engine.simulation?.id ?? null, limit)).map(toSimulationView)
}

export function toSimulationView(row: SimulationRow): SimulationView {
  return { id: row.id, mode: row.mode, scale: row.scale, startedAt: row.started_at, startedWallAt: row.started_wall_at, label: row.label }
}
