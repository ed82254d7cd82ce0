// `hookloop run FILE [--report OUT.json] [--data DIR] [--json]`: runs a scenario headless.
// Exit codes are the contract CI relies on: 0 every expectation holds, 1 one fails (or the run
// could not finish), 2 the file is unreadable, not JSON, or not a valid scenario.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parseScenario } from '../../shared/scenario-validate'
import { formatProblem } from '../../shared/scenario-issues'
import { scenarioJsonSchema } from '../../shared/scenario-json-schema'
import { DATA_FILE_NAME } from '../engine/engine'
import { runScenario } from '../engine/scenarios/run'
import { formatSummary } from '../engine/scenarios/summary'
import type { Command } from './commands'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop run FILE [--report OUT.json] [--data DIR] [--json]
       hookloop run --schema

Runs the scenario in FILE headless and prints what happened to every delivery.
  --report OUT.json  also write the full report as JSON
  --data DIR         keep the run's SQLite file in DIR/hookloop.db (a new folder; default: a
                     temp file, removed after)
  --json             print the report as JSON instead of the summary
  --schema           print the JSON Schema of scenario files (for editors) and exit
Exit status: 0 every expectation holds, 1 one fails, 2 the file is invalid.`

export async function run(args: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        report: { type: 'string' },
        data: { type: 'string' },
        json: { type: 'boolean', default: false },
        schema: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    throw new UsageError(`run: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (parsed.values.help) {
    out.write(`${USAGE}\n`)
    return 0
  }
  if (parsed.values.schema) {
    out.write(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`)
    return 0
  }
  const [file, ...extra] = parsed.positionals
  if (!file) throw new UsageError('run: which scenario file? (hookloop run FILE [--report OUT.json])')
  if (extra.length) throw new UsageError(`run: one scenario file at a time (got also ${extra.join(', ')})`)

  const dataDir = parsed.values.data
  // A run judges only what it did itself: it starts from an empty store, never on top of another.
  if (dataDir !== undefined && existsSync(join(dataDir, DATA_FILE_NAME))) {
    throw new UsageError(`run: ${join(dataDir, DATA_FILE_NAME)} already exists; a scenario run starts from an empty store (give --data a new folder)`)
  }

  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (error as Error).message
    err.write(`hookloop: cannot read the scenario ${file}: ${why}\n`)
    return 2
  }
  // Editors on Windows save a byte-order mark; JSON.parse refuses it.
  const result = parseScenario(text.replace(/^\uFEFF/, ''))
  if (!result.ok) {
    err.write(`hookloop: ${file} is not a valid scenario:\n`)
    for (const problem of result.problems) err.write(`  ${formatProblem(problem)}\n`)
    return 2
  }

  // Ctrl-C ends the run early but still prints and writes what happened so far.
  const interrupt = new AbortController()
  const onSignal = () => interrupt.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  let report
  try {
    report = await runScenario(result.scenario, {
      file,
      signal: interrupt.signal,
      // On a virtual clock the whole run takes a moment; on real time, show it as it goes.
      ...(result.scenario.clock.mode === 'virtual' || parsed.values.json ? {} : { onProgress: (line: string) => err.write(`${line}\n`) }),
      ...(dataDir === undefined ? {} : { dataDir }),
    })
  } catch (error) {
    err.write(`hookloop: the scenario could not run: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
  if (parsed.values.json) out.write(`${JSON.stringify(report, null, 2)}\n`)
  else out.write(`${formatSummary(report)}\n`)
  if (parsed.values.report !== undefined) {
    try {
      mkdirSync(dirname(resolve(parsed.values.report)), { recursive: true })
      writeFileSync(parsed.values.report, `${JSON.stringify(report, null, 2)}\n`)
    } catch (error) {
      err.write(`hookloop: cannot write the report to ${parsed.values.report}: ${(error as Error).message}\n`)
      return 1
    }
  }
  return report.ok ? 0 : 1
}
export const runCommand: Command = (args) => run(args)
