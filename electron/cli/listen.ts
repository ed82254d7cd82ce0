// `hookloop listen`: a receiver on this machine with endpoints and rules from a JSON config file,
// one log line per request, everything captured into the SQLite file of a data folder, or into a
// team's PostgreSQL (`--store postgres://…`, listen-store.ts).
// Ctrl-C (SIGINT) or SIGTERM commits what is queued, closes every connection and exits 0.
import { DefinitionError, NEW_ENDPOINT_DEDUPE, endpointDefinition, endpointPath, explainDedupeKey, parseListenConfig, type ListenConfig, explainStep, explainLeg, explainHold, targetUrlProblem, schemaVerdictGist, schemaVerdictLabel } from '../../shared/receiver'
import type { ReceiverEvent } from '../../shared/receiver'
import { createRealClock } from '../engine/clock'
import { createContractSchemas } from '../engine/contracts'
import { createReceiver, ruleTargets, type Receiver } from '../engine/receiver'
import { badRowsNotice, DATA_FILE_NAME, readBadRows } from '../engine/store'
import { watchDefinitions } from '../engine/host'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import { openListenStore } from './listen-store'
import { passwordOnCommandLine, STORE_OPTION, storeOrDataFolderArg } from './store-arg'
import { logKey, logNotes, logRequestLine } from './safe-log'
import { createRequestJsonLog } from './listen-json'
import { describeRetention, RETENTION_OPTIONS, retentionFlags, startListenRetention } from './listen-retention'
import { startListenTunnel, TUNNEL_OPTIONS, tunnelSettings } from './listen-tunnel'
import { checkBreakTerminal, startBreakTerminal } from './listen-break'
import { readFileOrUsage, UsageError } from './usage-error'

export const DEFAULT_LISTEN_PORT = 7780

/** Options of `hookloop listen`; the retention and the tunnel add theirs beside them. */
const LISTEN_OPTIONS = {
  port: { type: 'port', short: 'p', value: 'P', help: `port to listen on (default: the config's, else ${DEFAULT_LISTEN_PORT}; 0 = any free port)` },
  host: { type: 'string', value: 'H', help: 'address to bind (default 127.0.0.1)' },
  config: { type: 'string', short: 'c', value: 'FILE', help: 'endpoints and rules (JSON; schema in the README, section "hookloop listen")' },
  data: { type: 'string', value: 'DIR', help: `data folder holding ${DATA_FILE_NAME} (${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  'forward-to': { type: 'string', value: 'URL', help: "forward mode: requests no rule answers go on to your app at URL, and the sender gets your app's answer (both legs recorded)" },
  break: { type: 'string', value: 'MATCH', help: "hold each matching request and act on it at a prompt in this terminal (docs/breakpoints.md): words of KEY=VALUE, e.g. 'path=/h/pay method=POST json.type=invoice.paid limit=10 expire=503'" },
  json: { type: 'boolean', help: 'NDJSON on stdout: one JSON object per request, once answered; every other line (the banner, "Press Ctrl-C to stop.") goes to stderr' },
  ...RETENTION_OPTIONS,
  ...TUNNEL_OPTIONS,
} as const satisfies OptionSpecs

const LISTEN_HELP = `Usage: hookloop listen [options]

Runs a receiver: every request to http://HOST:PORT/h/<slug> is captured, verified, deduped and
answered by the endpoint's rules; one line is logged per request.

{options}

Ctrl-C stops it cleanly (exit 0). A bad config file exits 2 naming the field at fault.`

export interface ListenSettings {
  /** Forward mode: the default endpoint's target (an http(s) URL). */
  forwardTo?: string
  host: string
  port: number
  /** A data folder, or a team's PostgreSQL (its URL kept in memory, `where` without the password). */
  store: { dataDir: string } | { url: string; where: string }
  config: ListenConfig | null
}

/** Reads and validates a config file; every problem is a UsageError naming the file and the JSON path. */
export function loadListenConfig(file: string): ListenConfig {
  const text = readFileOrUsage(file, (why) => `cannot read the config file ${file}: ${why}`).toString('utf8')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  try {
    return parseListenConfig(json)
  } catch (error) {
    if (error instanceof DefinitionError) throw new UsageError(`${file}: ${error.path || '(top level)'}: ${error.problem}`)
    throw error
  }
}

export function listenSettings(values: { port?: number; host?: string; config?: string; data?: string; store?: string; 'forward-to'?: string }): ListenSettings {
  const config = values.config === undefined ? null : loadListenConfig(values.config)
  const forwardTo = values['forward-to']
  if (forwardTo !== undefined) {
    const problem = targetUrlProblem(forwardTo)
    if (problem) throw new UsageError(`--forward-to: ${problem}`)
  }
  return {
    ...(forwardTo === undefined ? {} : { forwardTo }),
    host: values.host ?? config?.host ?? '127.0.0.1',
    port: values.port ?? config?.port ?? DEFAULT_LISTEN_PORT,
    store: storeOrDataFolderArg('listen', values),
    config,
  }
}

/**
 * --forward-to: the endpoint named "default" (else the only one, else the first) forwards what no
 * rule answers to the URL. A target pointing back at this receiver is refused (a loop).
 */
async function applyForwardTo(receiver: Receiver, url: string): Promise<void> {
  const endpoints = receiver.endpoints.list()
  const target = endpoints.find((e) => e.slug === 'default') ?? endpoints[0]
  if (!target) return
  await receiver.endpoints.update(target.id, { ...endpointDefinition(target), forward_to: url })
}

/** The config's endpoints replace those with the same slug (rules included); others are kept. */
async function applyConfig(receiver: Receiver, config: ListenConfig): Promise<void> {
  for (const { endpoint, rules } of config.endpoints) {
    const input = { ...(endpoint.id === undefined ? {} : { id: endpoint.id }), ...endpointDefinition(endpoint) }
    const existing = receiver.endpoints.list().find((e) => e.slug === endpoint.slug)
    const saved = existing ? await receiver.endpoints.update(existing.id, { ...input, id: undefined }) : await receiver.endpoints.create(input)
    for (const rule of receiver.rules.list(saved.id)) await receiver.rules.delete(rule.id)
    for (const rule of rules) await receiver.rules.add(saved.id, rule)
  }
}

/**
 * One line per request: time, endpoint, method + path, key, dup #, signature, fault, status, ms,
 * then why it was refused or not inspected, when it was. Request text goes through safe-log.
 */
export function createRequestLog(write: (line: string) => void) {
  const pending = new Map<number, { time: string; endpoint: string; request: string; key: string; dup: string; sig: string; notes: string }>()
  return (event: ReceiverEvent) => {
    switch (event.type) {
      case 'request.captured': {
        const r = event.request
        pending.set(r.id, {
          time: new Date(r.receivedAt).toISOString(),
          endpoint: r.endpointSlug ?? '(none)',
          request: logRequestLine(r.method, r.path, r.query),
          key: logKey(r.dedupeKey, r.dedupeKeyMark ?? null, r.dedupeKeyFrom ?? null),
          dup: '-',
          sig: '-',
          notes: logNotes(r),
        })
        return
      }
      case 'request.verified': {
        const line = pending.get(event.requestId)
        if (line) line.sig = event.result.reason
        return
      }
      case 'request.duplicate': {
        const line = pending.get(event.requestId)
        if (line) line.dup = `#${event.number}`
        return
      }
      case 'request.responded': {
        const line = pending.get(event.requestId)
        pending.delete(event.requestId)
        if (!line) return
        const fault = event.fault && !(event.fault.type === 'reply' && event.fault.status < 300) ? explainStep(event.fault) : '-'
        const status = event.status === null ? event.outcome : `${event.status}${event.outcome === 'replied' ? '' : ` ${event.outcome}`}`
        write(`${line.time}  ${line.endpoint}  ${line.request}  key=${line.key}  dup=${line.dup}  sig=${line.sig}  fault=${fault}  status=${status}  ${Math.round(event.durationMs)}ms${line.notes}`)
        return
      }
      case 'request.forwarded': {
        const leg = event.leg
        write(`${new Date(leg.sentAt).toISOString()}  -> ${logRequestLine(leg.request.method, new URL(leg.request.url).pathname, '')}  ${leg.kind}  ${explainLeg(leg)}  (request ${leg.requestId})`)
        return
      }
      case 'breakpoint.held': {
        const r = event.request
        write(`${new Date(r.heldAt).toISOString()}  HELD  ${logRequestLine(r.method, r.path, r.query)}  (request ${r.requestId}, breakpoint ${r.breakpointId}, until ${new Date(r.expiresAt).toISOString()})`)
        return
      }
      case 'breakpoint.released':
        write(`${new Date().toISOString()}  RELEASED  request ${event.requestId}: ${explainHold(event.hold)}`)
        return
      case 'request.schema':
        // After its request's line (judged once answered); a body that matches its schema adds no line.
        if (event.verdict.verdict === 'invalid') write(`${new Date().toISOString()}  ${schemaVerdictLabel(schemaVerdictGist(event.verdict))}  (request ${event.requestId}, ${event.verdict.schema ?? ''} of ${event.verdict.source ?? ''})`)
        return
      case 'connection.refused':
        write(`${new Date().toISOString()}  (refused)  ${event.remoteAddress ?? '?'}  ${event.reason}  status=${event.status ?? '-'}`)
        return
      case 'store.error':
        write(`${new Date().toISOString()}  STORE ERROR  ${event.message} (${event.pending} writes queued, retrying)`)
        return
      default: {
        const never: never = event
        return never
      }
    }
  }
}

export async function listenCommand(args: string[]): Promise<number> {
  const parsed = commandArgs('listen', LISTEN_HELP, args, LISTEN_OPTIONS)
  if (!parsed) return 0
  const values = parsed.values
  const settings = listenSettings(values)
  // listen runs for hours: its argv, a password in --store included, shows in `ps` all that time.
  const passwordWarning = passwordOnCommandLine(values.store)
  if (passwordWarning) process.stderr.write(`hookloop: ${passwordWarning}\n`)
  const tunnelOptions = tunnelSettings(values, settings.host)
  const keep = retentionFlags(values)
  checkBreakTerminal(values.break, { stdin: process.stdin.isTTY === true, stdout: process.stdout.isTTY === true })
  let tunnel: ReturnType<typeof startListenTunnel> | undefined
  const store = await openListenStore(settings.store)
  // With --json stdout carries only the requests' JSON lines.
  const write = (line: string) => (values.json ? process.stderr : process.stdout).write(line + '\n')
  let receiver: Receiver
  try {
    receiver = await createReceiver({
      ...store.receiverStore,
      clock: createRealClock(),
      host: settings.host,
      port: settings.port,
      onEvent: values.json ? createRequestJsonLog((line) => process.stdout.write(line + '\n')) : createRequestLog(write),
      publicUrl: () => tunnel?.publicUrl(),
      // Commits run beside the server: a burst of webhooks is answered without waiting on SQLite's turn.
      captureThread: true,
      // An endpoint made by `hookloop contract add`: its requests are judged against its spec.
      contractSchemas: createContractSchemas(),
      ...(settings.config?.requestDeadlineMs === undefined ? {} : { requestDeadlineMs: settings.config.requestDeadlineMs }),
      ...(settings.config?.bodyBudgetBytes === undefined ? {} : { bodyBudgetBytes: settings.config.bodyBudgetBytes }),
    })
  } catch (error) {
    await store.close()
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw new UsageError(`port ${settings.port} on ${settings.host} is already in use (pick another with --port)`)
    throw error
  }
  let retention: Awaited<ReturnType<typeof startListenRetention>>
  try {
    if (settings.config) await applyConfig(receiver, settings.config)
    // The endpoint made for a folder with none finds the event id on its own (NEW_ENDPOINT_DEDUPE).
    if (receiver.endpoints.list().length === 0) await receiver.endpoints.create({ slug: 'default', name: 'default', dedupe: NEW_ENDPOINT_DEDUPE })
    if (settings.forwardTo) await applyForwardTo(receiver, settings.forwardTo)
    retention = await startListenRetention(store, receiver, keep, write)
  } catch (error) {
    await receiver.close()
    await store.close()
    if (error instanceof DefinitionError) throw new UsageError(error.path.startsWith('forward_to') ? `--forward-to: ${error.problem}` : `${values.config ?? 'config'}: ${error.message}`)
    throw error
  }

  write(`Hookloop receiver on ${receiver.url} (${'dataDir' in settings.store ? 'data' : 'store'}: ${store.where})`)
  for (const endpoint of receiver.endpoints.list()) {
    // A rule's name says what it does, not where it forwards: its targets follow it, in full.
    const rules = receiver.rules.list(endpoint.id).map((r) => {
      const targets = [...new Set(ruleTargets(r.rule).map((t) => t.url))]
      return `${r.rule.name ?? r.explain}${targets.length ? ` -> ${targets.join(', ')}` : ''}`
    })
    write(
      `  ${receiver.url}${endpointPath(endpoint.slug)}  verify=${endpoint.scheme ?? 'none'}  dedupe=${explainDedupeKey(endpoint.dedupe)}  rules=${rules.length ? rules.join('; ') : endpoint.forwardTo ? 'none' : 'none (answer 200)'}${endpoint.forwardTo ? `  forward-to=${endpoint.forwardTo.join(', ')}` : ''}`,
    )
  }
  write(describeRetention(await retention.settings()))
  // Rows that do not parse were set aside as the receiver loaded; each is named, with the way out.
  for (const line of badRowsNotice(await readBadRows(store))) process.stderr.write(`hookloop: ${line}\n`)
  // The app (or `serve`) on the same folder may add or edit endpoints and rules while this runs.
  const changes = await store.changes()
  const definitions = await watchDefinitions({
    engine: store.engine,
    changes,
    onError: (error) => process.stderr.write(`hookloop: reading the changed endpoints and rules: ${error instanceof Error ? error.message : String(error)}\n`),
    onChanged: (tables) => {
      if (tables.has('breakpoints')) {
        receiver.breakpoints.reload()
        write(`${new Date().toISOString()}  breakpoints changed in the data folder; now: ${receiver.breakpoints.list().length}`)
      }
      if (!tables.has('endpoints') && !tables.has('rules')) return
      receiver.reloadDefinitions().then(
        () => write(`${new Date().toISOString()}  endpoints and rules changed in the data folder; now: ${receiver.endpoints.list().map((e) => endpointPath(e.slug)).join(', ') || 'none'}`),
        // A busy store: the watch sees the tables still differ from this copy on a later change.
        (error: unknown) => process.stderr.write(`hookloop: reading the changed endpoints and rules: ${error instanceof Error ? error.message : String(error)}\n`),
      )
    },
  })
  const endBreak = values.break === undefined ? () => {} : startBreakTerminal(receiver, values.break, write)
  if (tunnelOptions) tunnel = startListenTunnel(receiver, tunnelOptions, () => receiver.endpoints.list().map((e) => `${endpointPath(e.slug)}${e.forwardTo ? `  -> forwards to ${e.forwardTo.join(', ')}` : ''}`), write)
  return new Promise<number>((resolve) => {
    let stopping = false
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return
      stopping = true
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      write(`${signal}: stopping…`)
      definitions.stop()
      void changes.close()
      endBreak()
      Promise.resolve(tunnel?.stop())
        .then(() => retention.stop())
        .then(() => receiver.close())
        .then(() => store.requests())
        .then(async (count) => {
          await store.close()
          write(`Stopped. ${count} request${count === 1 ? '' : 's'} in ${store.where}.`)
          resolve(0)
        })
        .catch((error: unknown) => {
          process.stderr.write(`hookloop: could not stop cleanly: ${error instanceof Error ? error.message : String(error)}\n`)
          resolve(1)
        })
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    // Only once Ctrl-C is handled: a script that waits for this line may send SIGINT at once.
    write('Press Ctrl-C to stop.')
  })
}
