// `hookloop resend REQUEST_ID --to URL [--as-is | --resign | --broken] [--header 'Name: value']…
// [--body-file F] [--data DIR | --store STORE] [--timeout MS] [--json]`: one captured request of a
// data folder or a team's store sent to a target again — as it was, edited and re-signed with its
// endpoint's secret, or edited with the signature left broken — the leg printed and stored beside
// the request.
import { explainLeg, targetUrlProblem, DefinitionError } from '../../shared/receiver'
import { createRealClock } from '../engine/clock'
import { createReceiver, resendStored } from '../engine/receiver'
import type { ResendMode, ResendOptions } from '../engine/receiver'
import type { ForwardLeg } from '../../shared/receiver'
import { createAuditStore, openDatabase, openStore, storeOfDatabase, type OpenedStore, type StoreLocation } from '../engine/store'
import { LOCAL_ACTOR } from '../../shared/contract'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import { existingStoreArg, STORE_OPTION } from './store-arg'
import type { Command } from './commands'
import { readFileOrUsage, UsageError } from './usage-error'

const USAGE = `Usage: hookloop resend REQUEST_ID --to URL [--as-is | --resign | --broken] [--header 'Name: value']... [--body-file F] [--data DIR | --store STORE] [--timeout MS] [--json]

Sends a captured request to a target (your app) again and stores the leg beside the request.
{options}
Exit status: 0 the target answered (any status), 1 it did not (refused, reset, timed out),
2 bad usage, an unknown request id, or no secret to re-sign with.`

const OPTIONS = {
  to: { type: 'string', value: 'URL', help: 'where to send (http:// or https://)' },
  'as-is': { type: 'boolean', help: 'the request as it was captured: the original signature (the default)' },
  resign: { type: 'boolean', help: "edited, then signed again with the endpoint's scheme and first secret" },
  broken: { type: 'boolean', help: 'edited, with the original signature left in place: it no longer matches' },
  header: { type: 'string', multiple: true, value: "'N: v'", help: 'set a header (replaces one of the same name); repeat for more' },
  'body-file': { type: 'string', value: 'F', help: "send F's bytes as the body instead of the captured body" },
  data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  timeout: { type: 'number', whole: true, min: 1, value: 'MS', help: 'longest wait for the answer in milliseconds (default 30000)' },
  json: { type: 'boolean', help: 'print the leg as JSON' },
} as const satisfies OptionSpecs

const MODES: readonly ResendMode[] = ['as-is', 'resign', 'broken']

export function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':')
  const name = colon === -1 ? '' : text.slice(0, colon).trim()
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`resend: --header takes 'Name: value', got "${text.slice(0, 100)}"`)
  return [name, text.slice(colon + 1).trim()]
}

export const resendCommand: Command = async (args) => {
  const parsed = commandArgs('resend', USAGE, args, OPTIONS, 'REQUEST_ID')
  if (!parsed) return 0
  const { values: v, arg: idText } = parsed
  if (!/^\d{1,15}$/.test(idText)) throw new UsageError(`resend: REQUEST_ID is a captured request's number, got "${idText}"`)
  if (!v.to) throw new UsageError('resend: --to URL is required')
  const problem = targetUrlProblem(v.to)
  if (problem) throw new UsageError(`resend: --to: ${problem}`)
  const chosen = MODES.filter((mode) => v[mode])
  if (chosen.length > 1) throw new UsageError(`resend: choose one of --as-is, --resign, --broken (got ${chosen.map((m) => `--${m}`).join(' and ')})`)
  const headers = (v.header ?? []).map(parseHeader)
  const bodyFile = v['body-file']
  const body = bodyFile === undefined ? undefined : readFileOrUsage(bodyFile, (why) => `resend: cannot read --body-file ${bodyFile} (${why})`)
  const edited = body !== undefined || headers.length > 0
  const mode: ResendMode = chosen[0] ?? 'as-is'
  if (mode === 'as-is' && edited) throw new UsageError('resend: an edited request (--header, --body-file) goes --resign (signed again) or --broken (old signature kept); --as-is sends it unchanged')
  const timeoutMs = v.timeout
  const { location } = existingStoreArg('resend', v)

  const options: ResendOptions = { to: v.to, mode, ...(headers.length ? { headers } : {}), ...(body ? { body } : {}), ...(timeoutMs ? { timeoutMs } : {}) }
  let leg: ForwardLeg
  try {
    leg = await resendIn(location, Number(idText), options, async (store, sent) => {
      // A resend is a change the audit keeps (docs/team.md, "Audit"), as the app's request.resend is;
      // the body itself is not kept, only that it was edited.
      await createAuditStore(store.engine).record({
        at: Date.now(),
        actorId: null,
        actor: LOCAL_ACTOR,
        via: 'cli',
        command: 'request.resend',
        target: { kind: 'request', id: idText },
        summary: `request.resend · request ${idText} · mode ${mode}`,
        detail: { id: Number(idText), to: v.to, mode, ...(headers.length ? { headers } : {}), ...(body === undefined ? {} : { bodyEdited: true }), leg: sent.id, outcome: sent.outcome },
      })
    })
  } catch (error) {
    if (error instanceof DefinitionError) throw new UsageError(`resend: ${error.path === 'requestId' ? 'REQUEST_ID' : error.path === 'mode' ? `--${mode}` : `--${error.path}`}: ${error.problem}`)
    throw error
  }
  if (v.json) {
    const { request, response, ...rest } = leg
    const text = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString('utf8'))
    process.stdout.write(JSON.stringify({ ...rest, request: { ...request, body: text(request.body) }, response: { ...response, body: text(response.body) } }, null, 2) + '\n')
  } else {
    const status = leg.response.status === null ? '-' : String(leg.response.status)
    const latency = leg.latencyMs === null ? '-' : `${leg.latencyMs}ms`
    process.stdout.write(`${leg.request.method} ${leg.request.url}  ${mode}  status=${status}  ${latency}  outcome=${leg.outcome}  (${explainLeg(leg)}; leg ${leg.id} of request ${leg.requestId})\n`)
  }
  return leg.outcome === 'answered' ? 0 : 1
}

/**
 * Sends the request again from the store at `location` and stores its leg there, then `audit`s it
 * on the same store. A data folder: resendStored, on the folder's file. A team's PostgreSQL: a
 * receiver on the store, on a free loopback port for as long as the resend takes, does it (its
 * resend reads the request and stores the leg through the store, as `serve` does there); nothing
 * is captured meanwhile, since nobody knows its port.
 */
async function resendIn(location: StoreLocation, requestId: number, options: ResendOptions, audit: (store: OpenedStore, leg: ForwardLeg) => Promise<void>): Promise<ForwardLeg> {
  const clock = createRealClock()
  if (location.kind === 'sqlite') {
    const db = openDatabase({ file: location.file })
    try {
      const leg = await resendStored(db, clock, requestId, options)
      await audit(storeOfDatabase(db), leg)
      return leg
    } finally {
      db.close()
    }
  }
  const store = await openStore(location)
  try {
    const receiver = await createReceiver({ store: store.engine, secrets: store.secrets, clock, host: '127.0.0.1', port: 0 })
    let leg: ForwardLeg
    try {
      leg = await receiver.resend(requestId, options)
    } finally {
      await receiver.close()
    }
    await audit(store, leg)
    return leg
  } finally {
    await store.engine.close()
  }
}
