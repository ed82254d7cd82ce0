// Catalog events in a scenario: an event that leaves out `payload` takes the event catalog's payload
// for its `type`, from the provider its subscriptions deliver as, built fresh per run (new ids and
// times, at the send time and the subscription's API version), with its `overrides` applied.
// Overrides name paths of the body, as `hookloop trigger --set` does, so the same path works in both.
import { applyOverrides, catalogEvent, EVENT_CATALOG, fixtureContext, OverrideError, parseOverride, type Override } from '../event-catalog'
import { PROVIDERS, type ProviderId } from '../providers'
import { eventLocalId, type Scenario, type ScenarioEvent, type ScenarioSubscription } from './schema'
import { formatPath, type ScenarioProblem } from './issues'

/** Where the payload sits in a subscription's body: the path overrides must start with. */
function bodyPrefix(sub: ScenarioSubscription): string {
  if (sub.provider !== undefined) return PROVIDERS[sub.provider].envelope.payloadPath
  return sub.envelope === 'payload' ? '' : 'payload'
}

function targetsOf(scenario: Scenario, event: ScenarioEvent): ScenarioSubscription[] {
  const names = event.subscriptions ?? scenario.subscriptions.map((s) => s.id)
  return names.flatMap((name) => scenario.subscriptions.find((s) => s.id === name) ?? [])
}

function overridesOf(event: ScenarioEvent): Override[] {
  const given = event.overrides
  if (given === undefined) return []
  if (Array.isArray(given)) return given.map(parseOverride)
  return Object.entries(given).map(([path, value]) => {
    if (path.split('.').some((segment) => segment === '')) throw new OverrideError(`override "${path}": the path has an empty segment`)
    return { path: path.split('.'), value }
  })
}

type Plan = { ok: true; provider: ProviderId | undefined; apiVersion: string | undefined; prefix: string; overrides: Override[] } | { ok: false; path: (string | number)[]; message: string }

function plan(scenario: Scenario, event: ScenarioEvent): Plan {
  const targets = targetsOf(scenario, event)
  const prefixes = [...new Set(targets.map(bodyPrefix))]
  let overrides: Override[]
  try {
    overrides = overridesOf(event)
  } catch (error) {
    return { ok: false, path: ['overrides'], message: (error as Error).message }
  }
  if (overrides.length > 0 && prefixes.length > 1) {
    return { ok: false, path: ['overrides'], message: `its subscriptions' bodies hold the payload in different places (${prefixes.map((p) => JSON.stringify(p)).join(', ')}), so one override path cannot fit them all; send it to one kind of subscription` }
  }
  const prefix = prefixes[0] ?? ''
  if (event.payload !== undefined) return { ok: true, provider: undefined, apiVersion: undefined, prefix, overrides }
  const providers = [...new Set(targets.map((s) => s.provider))]
  const first = targets[0]
  if (first === undefined || providers.includes(undefined)) {
    const plain = targets.filter((s) => s.provider === undefined).map((s) => s.id)
    return { ok: false, path: ['payload'], message: `no payload, and subscription${plain.length === 1 ? '' : 's'} ${plain.join(', ')} name${plain.length === 1 ? 's' : ''} no provider whose catalog could give one: write the "payload", or give the subscription a "provider"` }
  }
  if (providers.length > 1) {
    return { ok: false, path: ['payload'], message: `no payload, and its subscriptions deliver as different providers (${providers.join(', ')}): write the "payload", or send it to one provider's subscriptions ("subscriptions")` }
  }
  const provider = first.provider as ProviderId
  if (!catalogEvent(provider, event.type)) {
    const known = EVENT_CATALOG[provider].map((e) => e.type).join(', ')
    return { ok: false, path: ['type'], message: `${PROVIDERS[provider].label} has no event type "${event.type}" in the catalog (known: ${known}); write the "payload" for another one` }
  }
  return { ok: true, provider, apiVersion: first.api_version, prefix, overrides }
}

/** The payload one event sends: its own, or the catalog's built at `now`; with its overrides applied. */
export function scenarioEventPayload(scenario: Scenario, event: ScenarioEvent, now: number): unknown {
  const p = plan(scenario, event)
  if (!p.ok) throw new OverrideError(p.message)
  const base = p.provider === undefined ? event.payload : catalogEvent(p.provider, event.type)!.payload(fixtureContext(now, p.apiVersion))
  return p.overrides.length === 0 ? base : applyOverrides(base, p.overrides, p.prefix)
}

/** What keeps an event's payload from being built: no provider for a catalog payload, an unknown type, an override that does not fit. */
export function catalogProblems(scenario: Scenario): ScenarioProblem[] {
  const problems: ScenarioProblem[] = []
  scenario.events.forEach((event, i) => {
    const p = plan(scenario, event)
    if (!p.ok) {
      problems.push({ path: formatPath(['events', i, ...p.path]), message: p.message })
      return
    }
    // A trial build finds an override that leads outside the payload or through a non-object now, not mid-run.
    try {
      scenarioEventPayload(scenario, event, 0)
    } catch (error) {
      problems.push({ path: formatPath(['events', i, 'overrides']), message: `event ${eventLocalId(event, i)}: ${(error as Error).message}` })
    }
  })
  return problems
}
