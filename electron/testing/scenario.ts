// A scenario file run from a test: the same validation and engine as `hookloop run`, the report
// returned as an object. An invalid file throws, naming the file and every problem with its path.
import { readFileSync } from 'node:fs'
import { formatProblem, parseScenarioWithSecrets } from '../../shared/scenario'
import type { ScenarioReport } from '../../shared/scenario'
import { runScenario } from '../engine/scenarios'
import { createContractSchemas } from '../engine/contracts'

export interface RunScenarioFileOptions {
  /** Values for `${NAME}` placeholders in the file (default: the environment). */
  secrets?: Record<string, string>
  /** Forward mode: where the app under test runs (replaces the file's "app"). */
  app?: string
}

export async function runScenarioFile(file: string, options: RunScenarioFileOptions = {}): Promise<ScenarioReport> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`runScenarioFile: cannot read ${file}: ${(error as Error).message}`)
  }
  const lookup = (name: string) => options.secrets?.[name] ?? process.env[name]
  const parsed = parseScenarioWithSecrets(text.replace(/^\uFEFF/, ''), lookup)
  if (!parsed.ok) throw new Error(`runScenarioFile: ${file} is not a valid scenario:\n${parsed.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`)
  const app = options.app !== undefined && parsed.scenario.app !== undefined ? { app: options.app } : {}
  return runScenario(parsed.scenario, { file, ...app, contractSchemas: createContractSchemas() })
}
