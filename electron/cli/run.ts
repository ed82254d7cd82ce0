// `hookloop run FILE|DIR [--report OUT.json] [--junit OUT.xml] [--data DIR | --store STORE] [--json]`: runs
// scenarios headless. Exit codes are the contract CI relies on: 0 every expectation holds, 1 one
// fails (or a run could not finish), 2 a file is unreadable, not JSON, or not a valid scenario.
// A folder runs every *.json file in it (sorted by name), one summary each and a total; the
// invalid ones are named with their problems and the others still run.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { targetUrlProblem } from '../../shared/receiver'
import { scenarioJsonSchema } from '../../shared/scenario'
import { DATA_FILE_NAME, openStore, parseStoreLocation, type OpenedStore } from '../engine/store'
import { toJUnitXml, type ScenarioFileResult, formatSummary } from '../engine/scenarios'
import type { Command } from './commands'
import { exitCodeOf, runScenarioFile } from './run-file'
import { commandArgs, type OptionSpecs } from './command-args'
import { STORE_ENV, storeLocationArg, storeOrDataFolderArg } from './store-arg'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop run FILE|DIR [options]
       hookloop run --schema

Runs the scenario in FILE headless and prints what happened to every delivery. With a folder,
runs every *.json scenario in it (sorted by name) and prints one summary each and a total.
{options}
Exit status: 0 every expectation holds, 1 one fails, 2 a file is invalid.`

const OPTIONS = {
  report: { type: 'string', value: 'OUT.json', help: 'also write the full report as JSON (a folder: {ok, scenarios: [...]})' },
  junit: { type: 'string', value: 'OUT.xml', help: 'also write JUnit XML for CI: a testsuite per scenario, a testcase per expectation' },
  data: { type: 'string', value: 'DIR', help: "keep the run's SQLite file in DIR/hookloop.db (a new folder; a folder of scenarios uses DIR/<name>/hookloop.db; default: a temp file, removed after; $HOOKLOOP_DATA is not used: a run starts from an empty store of its own)" },
  store: { type: 'string', value: 'STORE', help: `a data folder as --data takes it, or a team's postgres://user:password@host:5432/database: the run's endpoints and subscriptions are its own there (named with a tag of the run), on a simulated clock it owns, and the team's rows are left as they are (default: --data, else $${STORE_ENV} when it is a postgres:// URL)` },
  secret: { type: 'string', multiple: true, value: 'NAME=VALUE', help: 'the value of a secret written as ${NAME} in the file (repeatable; without it, the environment variable NAME)' },
  app: { type: 'string', value: 'URL', help: 'forward mode: your app runs at URL; it replaces the scenario\'s "app" in every forward target (default: $HOOKLOOP_APP_URL, else the file\'s own)' },
  'tunnel-host': { type: 'string', value: 'URL', help: 'through the tunnel: the tunnel server for scenarios with "tunnel" (default: $HOOKLOOP_TUNNEL_HOST, else the file\'s own, else https://localtunnel.me)' },
  json: { type: 'boolean', help: 'print the report as JSON instead of the summary' },
  schema: { type: 'boolean', help: 'print the JSON Schema of scenario files (for editors) and exit' },
} as const satisfies OptionSpecs

interface Options {
  app: string | undefined
  tunnelHost: string | undefined
  report: string | undefined
  junit: string | undefined
  data: string | undefined
  /** A team's PostgreSQL to run on (instead of a data folder). */
  team: { url: string; where: string } | undefined
  json: boolean
  secrets: Map<string, string>
}

/** `--secret NAME=VALUE` pairs; a malformed one is bad usage. */
function secretValues(pairs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  for (const pair of pairs) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.+)$/s.exec(pair)
    if (!match) throw new UsageError(`run: --secret takes NAME=VALUE with NAME in capitals, digits and "_" (got "${pair.split('=')[0] ?? pair}=…")`)
    out.set(match[1]!, match[2]!)
  }
  return out
}

/** The *.json files directly in `dir`, sorted by name (byte order, the same on every machine). */
function scenarioFiles(dir: string): string[] {
  let names: string[]
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.json'))
      .map((entry) => entry.name)
  } catch (error) {
    throw new UsageError(`run: cannot list the folder ${dir}: ${(error as Error).message}`)
  }
  if (names.length === 0) throw new UsageError(`run: no *.json scenario files in ${dir}`)
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((name) => join(dir, name))
}

function dataDirFor(options: Options, file: string, folderMode: boolean): string | undefined {
  if (options.data === undefined) return undefined
  return folderMode ? join(options.data, basename(file).replace(/\.json$/i, '')) : options.data
}

function writeOutput(path: string, text: string, what: string, err: NodeJS.WritableStream): boolean {
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true })
    writeFileSync(path, text)
    return true
  } catch (error) {
    err.write(`hookloop: cannot write the ${what} to ${path}: ${(error as Error).message}\n`)
    return false
  }
}

function verdictOf(result: ScenarioFileResult): 'passed' | 'failed' | 'invalid' {
  if (result.kind === 'invalid') return 'invalid'
  return result.kind === 'ran' && result.report.ok ? 'passed' : 'failed'
}

/** What --json and --report hold for a folder: every file with its verdict and report. */
function folderJson(results: readonly ScenarioFileResult[]): unknown {
  return {
    ok: exitCodeOf(results) === 0,
    scenarios: results.map((r) => {
      switch (r.kind) {
        case 'ran':
          return { file: r.file, result: verdictOf(r), report: r.report }
        case 'invalid':
          return { file: r.file, result: 'invalid', problems: r.problems }
        case 'error':
          return { file: r.file, result: 'failed', error: r.message }
        default: {
          const never: never = r
          throw new Error(`unknown result ${JSON.stringify(never)}`)
        }
      }
    }),
  }
}

function totalLine(results: readonly ScenarioFileResult[]): string {
  const count = (v: string) => results.filter((r) => verdictOf(r) === v).length
  const n = results.length
  return `TOTAL: ${n} scenario${n === 1 ? '' : 's'}: ${count('passed')} passed, ${count('failed')} failed, ${count('invalid')} invalid`
}

/**
 * Where a run keeps its store: --data DIR or --store DIR (a new data folder), --store with a team's
 * postgres:// URL, else $HOOKLOOP_STORE when it is one; else a temp folder. A data folder named by
 * $HOOKLOOP_STORE (or $HOOKLOOP_DATA) is not used: a run starts from an empty store of its own, and
 * on a team's store it keeps to rows of its own.
 */
function runStoreArg(values: { data?: string | undefined; store?: string | undefined }): Pick<Options, 'data' | 'team'> {
  if (values.store !== undefined) {
    const target = storeOrDataFolderArg('run', values)
    return 'dataDir' in target ? { data: target.dataDir, team: undefined } : { data: undefined, team: target }
  }
  const fromEnv = process.env[STORE_ENV]?.trim()
  if (values.data !== undefined || !fromEnv || !/^postgres(ql)?:/i.test(fromEnv)) return { data: values.data, team: undefined }
  const location = storeLocationArg('run', `$${STORE_ENV}`, fromEnv)
  return location.kind === 'postgres' ? { data: undefined, team: { url: location.url, where: location.where } } : { data: values.data, team: undefined }
}

export async function run(args: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const parsed = commandArgs('run', USAGE, args, OPTIONS, true, out)
  if (!parsed) return 0
  if (parsed.values.schema) {
    out.write(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`)
    return 0
  }
  const [target, ...extra] = parsed.positionals
  if (!target) throw new UsageError('run: which scenario file or folder? (hookloop run FILE|DIR [--report OUT.json] [--junit OUT.xml])')
  if (extra.length) throw new UsageError(`run: one scenario file or folder at a time (got also ${extra.join(', ')})`)
  const app = parsed.values.app ?? (process.env.HOOKLOOP_APP_URL || undefined)
  if (app !== undefined) {
    const problem = targetUrlProblem(app)
    if (problem) throw new UsageError(`run: ${parsed.values.app === undefined ? 'HOOKLOOP_APP_URL' : '--app'}: ${problem}`)
  }
  const tunnelHost = parsed.values['tunnel-host'] ?? (process.env.HOOKLOOP_TUNNEL_HOST || undefined)
  if (tunnelHost !== undefined && !/^https?:\/\/[^/]/.test(tunnelHost)) {
    throw new UsageError(`run: ${parsed.values['tunnel-host'] === undefined ? 'HOOKLOOP_TUNNEL_HOST' : '--tunnel-host'}: a tunnel server is an http:// or https:// URL like https://localtunnel.me (got "${tunnelHost}")`)
  }
  const options: Options = { app, tunnelHost, report: parsed.values.report, junit: parsed.values.junit, ...runStoreArg(parsed.values), json: parsed.values.json, secrets: secretValues(parsed.values.secret ?? []) }

  let folderMode = false
  try {
    folderMode = statSync(target).isDirectory()
  } catch {
    // A missing file is reported by the file run below, with the usual message and exit 2.
  }
  const files = folderMode ? scenarioFiles(target) : [target]
  // A run judges only what it did itself: it starts from an empty store, never on top of another.
  for (const file of files) {
    const dataDir = dataDirFor(options, file, folderMode)
    if (dataDir !== undefined && existsSync(join(dataDir, DATA_FILE_NAME))) {
      throw new UsageError(`run: ${join(dataDir, DATA_FILE_NAME)} already exists; a scenario run starts from an empty store (give --data a new folder)`)
    }
  }

  // A team's store is opened once for every file (a bad URL or key is one line before any runs).
  const team: OpenedStore | undefined = options.team && (await openStore(parseStoreLocation(options.team.url)))

  // Ctrl-C ends the current run early (it still reports what happened so far) and skips the rest.
  const interrupt = new AbortController()
  const onSignal = () => interrupt.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const results: ScenarioFileResult[] = []
  try {
    for (const file of files) {
      if (interrupt.signal.aborted) break
      const dataDir = dataDirFor(options, file, folderMode)
      const result = await runScenarioFile(file, {
        err,
        signal: interrupt.signal,
        progress: !options.json,
        secrets: (name) => options.secrets.get(name) ?? process.env[name],
        ...(team ? { store: team } : dataDir === undefined ? {} : { dataDir }),
        ...(options.app === undefined ? {} : { app: options.app }),
        ...(options.tunnelHost === undefined ? {} : { tunnelHost: options.tunnelHost }),
      })
      results.push(result)
      if (result.kind === 'ran' && !options.json) out.write(`${formatSummary(result.report)}\n${folderMode ? '\n' : ''}`)
    }
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await team?.engine.close()
  }
  if (folderMode && !options.json) out.write(`${totalLine(results)}\n`)

  let code = exitCodeOf(results)
  const single = !folderMode ? results[0] : undefined
  // A single file keeps its report as the document (what scripts and the UI already read).
  const document = single === undefined ? folderJson(results) : single.kind === 'ran' ? single.report : null
  if (options.json && document !== null) out.write(`${JSON.stringify(document, null, 2)}\n`)
  if (options.report !== undefined && document !== null && !writeOutput(options.report, `${JSON.stringify(document, null, 2)}\n`, 'report', err)) code = Math.max(code, 1)
  if (options.junit !== undefined && !writeOutput(options.junit, toJUnitXml(results, { hostname: hostname() }), 'JUnit XML', err)) code = Math.max(code, 1)
  return code
}
export const runCommand: Command = (args) => run(args)
