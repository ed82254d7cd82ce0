// `hookloop contract check SPEC [--data DIR | --store STORE] [filters] [--json] [--junit FILE]`: drift
// between a spec and the traffic captured in a data folder or a team store. `hookloop contract add SPEC [--data DIR]
// [--examples DIR]`: an endpoint per operation of the spec, and an example body per event type.
// SPEC is an OpenAPI 3.0/3.1 or AsyncAPI 2.x/3.x file or http(s) URL (docs/contracts.md).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { endpointPath } from '../../shared/receiver'
import { createRealClock } from '../engine/clock'
import {
  checkContract,
  checkSentEvents,
  exampleFileName,
  exampleOf,
  formatReportJUnit,
  formatReportMarkdown,
  formatReportText,
  loadContract,
  putContractEndpoints,
  readSentEvents,
  readTraffic,
  reportBreaking,
  SpecError,
  type ContractSpec,
} from '../engine/contracts'
import { createReceiver } from '../engine/receiver'
import { createListReads, DATA_FILE_NAME, openDatabase } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { DATA_DIR_DEFAULT_HELP, dataDirArg } from './data-dir-arg'
import { existingStoreArg, openStoreArg, STORE_OPTION } from './store-arg'
import { LIMIT_OPTION, parseSince } from './list-filters'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop contract check SPEC [--data DIR | --store STORE] [--endpoint E] [--since T] [--limit N] [--json] [--junit FILE]
       hookloop contract add SPEC [--data DIR] [--examples DIR] [--json]

SPEC is an OpenAPI 3.0 or 3.1 document (its webhooks and callbacks) or an AsyncAPI 2.x or 3.x
document (its operations and their messages), YAML or JSON, a file or an http(s) URL.

check: matches each captured request, and each event Hookloop's own sender published (a section
"sent by Hookloop"), to an operation of the spec (by the event type a header such
as X-GitHub-Event or the body's type/event_type/event field names, else by the endpoint whose slug
is the operation's) and checks its body against the operation's schema. Breaking: a required field
missing, a type that differs, a value outside an enum. Reported besides: fields the spec does not
name (undocumented), other constraints a value misses, event types the traffic never showed, and
event types the spec does not name. With $GITHUB_STEP_SUMMARY set, a markdown summary is appended to it.
add: an endpoint per operation (its slug from the operation's name; the signature scheme where the
spec declares one); an endpoint with that slug already there is updated, never duplicated.

{options}

A $ref to another file is followed; a $ref to an http(s) host only with --allow-remote-refs.
Exit status: 0 no breaking difference in the traffic or in what Hookloop sent (check) or endpoints in place (add), 1 a breaking difference,
2 bad usage or a spec that does not parse (its file, line and JSON pointer said).`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (${DATA_DIR_DEFAULT_HELP})` },
  store: { ...STORE_OPTION, help: `check: ${STORE_OPTION.help}` },
  endpoint: { type: 'string', value: 'E', help: 'check: only requests captured at our endpoint E (its slug or id)' },
  since: { type: 'string', value: 'T', help: 'check: only requests stored from T on: a duration back from now (90s, 15m, 2h, 7d, 2w) or an ISO time' },
  limit: { ...LIMIT_OPTION, default: 10_000, help: 'check: the newest N requests, and the newest N events Hookloop sent' },
  json: { type: 'boolean', help: 'the report (check) or what was made (add) as one JSON document' },
  junit: { type: 'string', value: 'FILE', help: 'check: also write JUnit XML to FILE, one testcase per operation' },
  examples: { type: 'string', value: 'DIR', help: "add: write an example body per event type to DIR/<event type>.json (the spec's example, else one made from the schema)" },
  'allow-remote-refs': { type: 'boolean', help: 'fetch $refs that point to an http(s) host' },
} as const satisfies OptionSpecs

type Values = NonNullable<ReturnType<typeof commandArgs<typeof OPTIONS>>>['values']

export const contractCommand: Command = async (args) => {
  const [action, ...rest] = args
  if (action === undefined || action === '--help' || action === '-h') {
    commandArgs('contract', USAGE, ['--help'], OPTIONS)
    return action === undefined ? 2 : 0
  }
  if (action !== 'check' && action !== 'add') throw new UsageError(`contract: unknown action "${action}" (actions: check, add)`)
  const parsed = commandArgs('contract', USAGE, rest, OPTIONS, 'SPEC')
  if (!parsed) return 0
  const v = parsed.values
  const only = action === 'check' ? ['examples'] : ['endpoint', 'since', 'junit', 'store']
  for (const name of only) if (v[name as keyof Values] !== undefined) throw new UsageError(`contract: --${name} belongs to \`contract ${action === 'check' ? 'add' : 'check'}\``)
  // A store that is not there is said before the spec is read (a parser takes a moment to load).
  const store = action === 'check' ? existingStoreArg('contract', v) : null
  let spec: ContractSpec
  try {
    spec = await loadContract(parsed.arg, { allowRemoteRefs: v['allow-remote-refs'] })
  } catch (error) {
    if (error instanceof SpecError) {
      process.stderr.write(`hookloop contract: ${error.message}\n`)
      return 2
    }
    throw error
  }
  return store ? check(spec, v) : add(spec, v)
}

async function check(spec: ContractSpec, v: Values): Promise<number> {
  // Requests hold no secret: a team store needs no data key, a keychain-sealed folder opens too.
  const store = await openStoreArg('contract', v, { withoutSecrets: true })
  let report
  try {
    let endpointId: string | undefined
    if (v.endpoint !== undefined) {
      const endpoint = await createListReads(store.engine).endpointOf(v.endpoint)
      if (!endpoint) throw new UsageError(`contract: no endpoint "${v.endpoint}" (slug or id) in ${store.where}`)
      endpointId = endpoint.id
    }
    const sinceWall = v.since === undefined ? undefined : parseSince('contract', v.since, Date.now())
    const traffic = await readTraffic(store, {
      limit: v.limit,
      ...(endpointId === undefined ? {} : { endpointId }),
      ...(sinceWall === undefined ? {} : { sinceWall }),
    })
    // What Hookloop's own sender published in the same store, checked too (its own section).
    const sent = await readSentEvents(store, { limit: v.limit, ...(sinceWall === undefined ? {} : { sinceWall }) })
    report = { ...checkContract(spec, traffic), sentByHookloop: checkSentEvents(spec, sent) }
  } finally {
    await store.engine.close()
  }
  if (v.junit !== undefined) {
    mkdirSync(resolve(v.junit, '..'), { recursive: true })
    writeFileSync(v.junit, formatReportJUnit(report, Date.now()))
  }
  const summary = process.env.GITHUB_STEP_SUMMARY?.trim()
  if (summary) appendFileSync(summary, formatReportMarkdown(report))
  process.stdout.write(v.json ? JSON.stringify(report, null, 2) + '\n' : formatReportText(report))
  return reportBreaking(report) > 0 ? 1 : 0
}

async function add(spec: ContractSpec, v: Values): Promise<number> {
  if (spec.operations.length === 0) throw new UsageError(`contract: ${spec.location} declares no webhooks, callbacks or operations: nothing to add`)
  const dataDir = dataDirArg('contract', v.data)
  mkdirSync(dataDir, { recursive: true })
  const file = join(dataDir, DATA_FILE_NAME)
  const db = openDatabase({ file })
  let made
  try {
    // The receiver's own definitions check and save each endpoint, as `hookloop listen` puts its
    // config's; it answers on a loopback port of its own only while they are put.
    const receiver = await createReceiver({ db, clock: createRealClock(), host: '127.0.0.1', port: 0, keepProcessAlive: false })
    try {
      made = await putContractEndpoints(receiver.endpoints, spec, { allowRemoteRefs: v['allow-remote-refs'] })
    } finally {
      await receiver.close()
    }
  } finally {
    db.close()
  }
  const examples = v.examples === undefined ? [] : writeExamples(spec, v.examples)
  if (v.json) {
    process.stdout.write(JSON.stringify({ spec: { location: spec.location, title: spec.title, version: spec.version, format: spec.format }, data: file, endpoints: made, examples }, null, 2) + '\n')
    return 0
  }
  process.stdout.write(`${spec.title} ${spec.version} (${spec.format}): ${made.length} endpoint${made.length === 1 ? '' : 's'} in ${file}\n`)
  for (const e of made) process.stdout.write(`  ${e.action.padEnd(9)} ${endpointPath(e.slug).padEnd(24)} ${e.operation}  verify=${e.scheme ?? 'none'}${e.schemeFrom ? ` (${e.schemeFrom})` : ''}\n`)
  if (made.some((e) => e.scheme !== null)) process.stdout.write('Give each verifying endpoint its secret in the app, or in a `hookloop listen` config, before traffic arrives.\n')
  for (const x of examples) process.stdout.write(`  example   ${x.file}  ${x.eventType} (${x.from === 'spec' ? "the spec's example" : 'made from the schema'})\n`)
  if (v.examples === undefined) {
    const count = new Set(spec.operations.flatMap((o) => o.messages.map((m) => m.eventType))).size
    process.stdout.write(`--examples DIR writes an example body for each of its ${count} event type${count === 1 ? '' : 's'}.\n`)
  }
  return 0
}

function writeExamples(spec: ContractSpec, dir: string): { eventType: string; file: string; from: 'spec' | 'schema' }[] {
  mkdirSync(dir, { recursive: true })
  const out: { eventType: string; file: string; from: 'spec' | 'schema' }[] = []
  const written = new Set<string>()
  for (const operation of spec.operations) {
    for (const message of operation.messages) {
      const file = join(dir, exampleFileName(message.eventType))
      if (written.has(file)) continue
      written.add(file)
      const example = exampleOf(message)
      writeFileSync(file, JSON.stringify(example.body, null, 2) + '\n')
      out.push({ eventType: message.eventType, file, from: example.from })
    }
  }
  return out
}
