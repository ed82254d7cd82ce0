// A HAR or case file's text → a scenario file's text, checked by the same validator `hookloop
// run` uses: what both `hookloop import --as-scenario` and the app's "Make it a scenario" call.
import { expectationCount, formatProblem, validateScenario } from '../../../shared/scenario'
import type { ScenarioInput } from '../../../shared/scenario'
import { parseIncident } from '../exports'
import { incidentToScenario, type IncidentOptions } from './from-incident'

export interface IncidentScenarioFile {
  kind: 'har' | 'case'
  /** The scenario as pretty JSON. */
  text: string
  scenario: ScenarioInput
  notes: string[]
  /** Variable names the run fills from `--secret NAME=…` or the environment. */
  secrets: string[]
  events: number
  /** The `resend` actions: an event the file saw arrive again, sent again. */
  resends: number
  /** Counted as `hookloop run` counts them (one per ✓ / ✗ line). */
  expectations: number
}

/** Throws ImportError (a broken file), IncidentConversionError (nothing to send) or Error (a scenario the validator refuses: a bug). */
export function scenarioFromIncidentText(text: string, options: IncidentOptions = {}): IncidentScenarioFile {
  const incident = parseIncident(text)
  const { scenario, notes, secrets } = incidentToScenario(incident, options)
  const checked = validateScenario(scenario)
  if (!checked.ok) throw new Error(`the scenario made from the file is not valid: ${checked.problems.map(formatProblem).join('; ')}`)
  return {
    kind: incident.kind,
    text: `${JSON.stringify(scenario, null, 2)}\n`,
    scenario,
    notes,
    secrets,
    events: checked.scenario.events.length,
    resends: checked.scenario.actions.filter((a) => a.type === 'resend').length,
    expectations: expectationCount(checked.scenario),
  }
}
