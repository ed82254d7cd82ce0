// One scenario file of `hookloop run`: read it, validate it, run it, and say what happened as a
// ScenarioFileResult (the same shape the JUnit writer and the directory total read). Problems are
// written to stderr as they are found, each naming the file and the JSON path.
import { readFileSync } from 'node:fs'
import type { Scenario } from '../../shared/scenario'
import { formatProblem, parseScenarioWithSecrets } from '../../shared/scenario'
import type { ScenarioFileResult } from '../engine/scenarios'
import { runScenario } from '../engine/scenarios'
import { createContractSchemas } from '../engine/contracts'
import type { OpenedStore } from '../engine/store'

export type LoadedScenario = { ok: true; scenario: Scenario } | { ok: false; problems: string[] }

/** Where `${NAME}` secret placeholders get their values: `--secret NAME=VALUE`, then the environment. */
export type SecretLookup = (name: string) => string | undefined


export function loadScenarioFile(file: string, err: NodeJS.WritableStream, secrets: SecretLookup = (name) => process.env[name]): LoadedScenario {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (error as Error).message
    err.write(`hookloop: cannot read the scenario ${file}: ${why}\n`)
    return { ok: false, problems: [`cannot read the file: ${why}`] }
  }
  // Editors on Windows save a byte-order mark; JSON.parse refuses it.
  const result = parseScenarioWithSecrets(text.replace(/^\uFEFF/, ''), secrets)
  if (result.ok) {
    // Defaults filled into explicit policies are said out loud, so nothing hidden changes behaviour.
    for (const line of result.defaults) err.write(`hookloop: ${file}: ${formatProblem(line)}\n`)
    return { ok: true, scenario: result.scenario }
  }
  const problems = result.problems.map(formatProblem)
  err.write(`hookloop: ${file} is not a valid scenario:\n`)
  for (const line of problems) err.write(`  ${line}\n`)
  return { ok: false, problems }
}

export interface RunFileOptions {
  err: NodeJS.WritableStream
  signal: AbortSignal
  /** Keep the run's SQLite file in this (new) folder. */
  dataDir?: string
  /** Run on this team's PostgreSQL instead (scenarios/run.ts: the run's rows are its own there). */
  store?: OpenedStore
  /** Print each attempt on stderr as it finishes (real and scaled clocks only). */
  progress: boolean
  /** Values for `${NAME}` secret placeholders (default: the environment). */
  secrets?: SecretLookup
  /** Wall time now, ms (the JUnit timestamp). */
  now?: () => number
  /** Forward mode: where the app under test runs (replaces the scenario's `app`). */
  app?: string
  /** Through the tunnel: the tunnel server for a scenario with `tunnel` (replaces its host). */
  tunnelHost?: string
}

export async function runScenarioFile(file: string, options: RunFileOptions): Promise<ScenarioFileResult> {
  const now = options.now ?? Date.now
  const startedAt = now()
  const loaded = loadScenarioFile(file, options.err, options.secrets)
  if (!loaded.ok) return { kind: 'invalid', file, startedAt, problems: loaded.problems }
  const { scenario } = loaded
  const app = options.app !== undefined && scenario.app !== undefined ? options.app : undefined
  if (options.app !== undefined && scenario.app === undefined) options.err.write(`hookloop: ${file} names no "app": the app URL given at run time is not used for it\n`)
  try {
    const report = await runScenario(scenario, {
      file,
      signal: options.signal,
      contractSchemas: createContractSchemas(),
      // On a virtual clock the whole run takes a moment; on real time, show it as it goes.
      ...(scenario.clock.mode === 'virtual' || !options.progress ? {} : { onProgress: (line: string) => options.err.write(`${line}\n`) }),
      ...(options.store ? { store: options.store } : options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(app === undefined ? {} : { app }),
      ...(options.tunnelHost === undefined || scenario.tunnel === undefined ? {} : { tunnel: { host: options.tunnelHost } }),
    })
    return { kind: 'ran', file, startedAt, report }
  } catch (error) {
    const message = `the scenario could not run: ${error instanceof Error ? error.message : String(error)}`
    options.err.write(`hookloop: ${message}\n`)
    return { kind: 'error', file, startedAt, message, wallMs: now() - startedAt }
  }
}

/** 2 when any file is invalid, else 1 when any did not pass, else 0: the CI contract. */
export function exitCodeOf(results: readonly ScenarioFileResult[]): number {
  if (results.some((r) => r.kind === 'invalid')) return 2
  if (results.some((r) => r.kind !== 'ran' || !r.report.ok)) return 1
  return 0
}
