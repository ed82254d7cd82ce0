// Forward mode in a scenario run: the app's URL given at run time moved into every forward target
// of the file (endpoints' forward_to, rules' forward steps, expectations' targets), and the legs
// the run sent, each tied to the endpoint it came through and the event it carried.
import type { ForwardLeg } from '../../../shared/receiver'
import type { Scenario } from '../../../shared/scenario'
import { retargetForwardTo, retargetRule, type ReportForwardLeg } from '../../../shared/scenario'
import type { RecordedDelivery, RecordedEndpointRequest } from './report'

/** The scenario with its `app` base URL replaced by `app` everywhere a forward target uses it. */
export function retargetScenario(scenario: Scenario, app: string): Scenario {
  const from = scenario.app
  if (from === undefined) throw new Error('the scenario names no "app": a run-time app URL has nothing to replace (add "app" with the URL its forward targets use)')
  const to = app.replace(/\/+$/, from.endsWith('/') ? '/' : '')
  return {
    ...scenario,
    app: to,
    endpoints: scenario.endpoints.map((e) => ({
      ...e,
      ...(e.forward_to === undefined ? {} : { forward_to: retargetForwardTo(e.forward_to, from, to) as typeof e.forward_to }),
      rules: e.rules.map((rule) => retargetRule(rule, from, to)),
    })),
    expect: { ...scenario.expect, forwards: scenario.expect.forwards.map((f) => (f.target === undefined ? f : { ...f, target: f.target.startsWith(from) ? `${to}${f.target.slice(from.length)}` : f.target })) },
  }
}

/** The legs the run's requests sent (store/scenario-records.ts), each with its endpoint (slug) and scenario event. */
export function forwardLegsOfRun(legs: readonly ForwardLeg[], startedAt: number, requests: readonly RecordedEndpointRequest[], deliveries: readonly RecordedDelivery[]): ReportForwardLeg[] {
  const slugOf = new Map(requests.filter((r) => r.id !== undefined).map((r) => [r.id as number, r.slug]))
  const eventOf = new Map<number, string>()
  for (const d of deliveries) for (const a of d.attempts) if (a.request) eventOf.set(a.request.id, d.event)
  return legs
    .filter((leg) => leg.kind !== 'resend')
    .map((leg) => ({
      request_id: leg.requestId,
      endpoint: slugOf.get(leg.requestId) ?? null,
      event: eventOf.get(leg.requestId) ?? null,
      kind: leg.kind,
      target_url: leg.targetUrl,
      url: leg.request.url,
      run_ms: leg.sentAt - startedAt,
      status: leg.response.status,
      outcome: leg.outcome,
      latency_ms: leg.latencyMs,
      error: leg.error,
    }))
}
