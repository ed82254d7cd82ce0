// A policy written out in a scenario without `preset` means exactly what it says: the fields it
// leaves out take the documented neutral defaults below (never a preset's choices such as
// `custom`'s Retry-After), and the validator lists each default it applied, so nothing hidden
// changes behaviour. A policy naming a preset keeps that preset's own documented defaults.
import { SCHEMES, type SchemeId } from '../signatures'
import type { ScenarioProblem } from './issues'
import { formatPath } from './issues'
import type { Scenario } from './schema'

/** The neutral defaults of an explicit policy, field by field, with how the validator says each. */
export const NEUTRAL_POLICY_DEFAULTS = {
  name: { value: 'explicit', says: 'name "explicit"' },
  max_attempts: { value: 1, says: 'max_attempts 1 (no retries)' },
  schedule: { value: { kind: 'fixed', interval_ms: 60_000 }, says: 'schedule fixed 60 s' },
  timeout_ms: { value: 10_000, says: 'timeout_ms 10000' },
  classification: {
    value: { rules: [{ when: { status_range: [200, 299] }, then: 'succeeded' }], otherwise: 'retry' },
    says: 'classification: 2xx succeeds, everything else is retried',
  },
  follow_redirects: { value: 0, says: 'redirects not followed' },
  retry_after: { value: { honour: false, statuses: [429, 503], max_ms: 86_400_000 }, says: 'retry_after not honoured' },
} as const

type NeutralField = keyof typeof NEUTRAL_POLICY_DEFAULTS
const FIELDS = Object.keys(NEUTRAL_POLICY_DEFAULTS) as NeutralField[]

/** The event id header a subscription sends when it names none (mirrors the sender's rule). */
export function defaultEventIdHeaderName(scheme: SchemeId, policyName: string | undefined): string {
  if (policyName === 'pandoktorek') return 'x-pandoktorek-event-id'
  return SCHEMES[scheme]?.idHeader ?? 'x-hookloop-event-id'
}

export interface AppliedDefaults {
  scenario: Scenario
  /** One line per subscription that got defaults: its policy's JSON path and what was filled in. */
  defaults: ScenarioProblem[]
}

/**
 * Fills the neutral defaults into every explicit policy (no `preset`), so the run starts from
 * nothing but the file. Returns the scenario to run and what was applied.
 */
export function applyExplicitPolicyDefaults(scenario: Scenario): AppliedDefaults {
  const defaults: ScenarioProblem[] = []
  const subscriptions = scenario.subscriptions.map((sub, i) => {
    const policy = sub.policy
    if (typeof policy === 'string' || policy.preset !== undefined) return sub
    const filled: Record<string, unknown> = { ...policy }
    const said: string[] = []
    for (const field of FIELDS) {
      if (filled[field] !== undefined) continue
      filled[field] = structuredClone(NEUTRAL_POLICY_DEFAULTS[field].value)
      if (field !== 'name') said.push(NEUTRAL_POLICY_DEFAULTS[field].says)
    }
    if (sub.event_id_header === undefined) said.push(`event id header ${defaultEventIdHeaderName(sub.scheme, filled.name as string)} (the ${sub.scheme} scheme's)`)
    if (said.length > 0) defaults.push({ path: formatPath(['subscriptions', i, 'policy']), message: `defaults applied: ${said.join(', ')}` })
    // `preset: "custom"` is only the base the sender resolves from: every field is set, so none of it shows.
    return { ...sub, policy: { ...filled, preset: 'custom' } as typeof sub.policy }
  })
  return { scenario: { ...scenario, subscriptions }, defaults }
}
