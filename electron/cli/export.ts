// `hookloop export [--data DIR | --store STORE | --server URL] --format har|curl|case [--requests IDS]
// [--deliveries IDS] [filters | --all] [--keep-secrets] [--out FILE] [--json]`: selected requests
// and deliveries of a data folder or a team's store as HAR 1.2, cURL commands or a Hookloop case
// file; secrets and signature headers redacted unless --keep-secrets. The filters are those of
// `hookloop requests` and `hookloop deliveries`. With --server, a served Hookloop selects and
// exports from its own store (the same file), for an API token.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { EXPORT_FORMATS, formatBytes, type ExportFormat } from '../../shared/contract'
import { exportSelection, ExportSelectionError } from '../engine/exports'
import { createListReads, DELIVERY_STATUSES, LIST_LIMIT_MAX, REQUEST_STATUSES } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import type { Command } from './commands'
import { anyListFilter, deliveryFilter, LIMIT_OPTION, LIST_FILTER_OPTIONS, remoteDeliveryFilter, remoteRequestFilter, requestFilter, type ListFilterValues } from './list-filters'
import { stderrProgress } from './progress'
import { connectServer, SERVER_OPTIONS, ServerError, serverArg } from './server-arg'
import { openStoreArg, STORE_OPTION } from './store-arg'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop export [--data DIR | --store STORE | --server URL] --format har|curl|case [--requests IDS] [--deliveries IDS] [FILTERS | --all] [options]

Exports captured requests and sender deliveries (every attempt) of a data folder (or a team's
store: --store) for support and other tools: the ids given, the requests and deliveries the
filters (--endpoint … --limit) select as \`hookloop requests\` and \`hookloop deliveries\` select
them (each kind; --status words select their kind; without --limit every match), or --all.
A team's PostgreSQL store needs its data key (HOOKLOOP_SECRET_KEY_FILE or HOOKLOOP_SECRET_KEY),
with or without --keep-secrets: redaction finds each signing secret by its value.
A served Hookloop (--server URL, an API token in $HOOKLOOP_TOKEN) writes the same file from its
store for a viewer's token; --keep-secrets there needs an admin's.
{options}
Progress goes to stderr while it is a terminal.
Exit status: 0 written, 2 bad usage, an id that is not in the store, or nothing selected;
1 a store that cannot be opened, or a server that refused.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (DIR/hookloop.db; ${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  ...SERVER_OPTIONS,
  format: { type: 'enum', values: EXPORT_FORMATS, value: 'F', help: 'HAR 1.2, a bash script of curl commands, or a Hookloop case file' },
  requests: { type: 'string', value: 'IDS', help: 'captured request ids, comma-separated (e.g. 12,13,20-24; `hookloop requests` lists them)' },
  deliveries: { type: 'string', value: 'IDS', help: 'delivery ids, comma-separated (`hookloop deliveries` lists them)' },
  all: { type: 'boolean', help: 'every captured request and every delivery in the store' },
  ...LIST_FILTER_OPTIONS,
  status: { type: 'list', values: [...REQUEST_STATUSES, ...DELIVERY_STATUSES], value: 'S', help: 'comma-separated: what matches any of them; each word selects its kind' },
  limit: LIMIT_OPTION,
  'keep-secrets': { type: 'boolean', help: 'keep secrets and signature headers (redacted by default)' },
  out: { type: 'string', value: 'FILE', help: 'write to FILE (default: stdout) and say what was written: the file, how many requests and deliveries, its size' },
  json: { type: 'boolean', help: 'with --out: print what was written as JSON ({"out", "format", "requests", "deliveries"})' },
} as const satisfies OptionSpecs

const FORMAT_NAMES: Record<(typeof EXPORT_FORMATS)[number], string> = { har: 'HAR 1.2', curl: 'cURL script', case: 'case file' }

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "1,2,5-7" → [1, 2, 5, 6, 7]. */
export function parseIdList(text: string, name: string): number[] {
  const ids: number[] = []
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const range = /^(\d{1,12})(?:-(\d{1,12}))?$/.exec(part)
    if (!range) throw new UsageError(`export: --${name} takes ids like 12,13,20-24; "${part}" is not one`)
    const from = Number(range[1])
    const to = range[2] === undefined ? from : Number(range[2])
    if (to < from || to - from > 100_000) throw new UsageError(`export: --${name} range ${part} is backwards or too long`)
    for (let id = from; id <= to; id++) ids.push(id)
  }
  return ids
}

/** Where an export reads: a store opened here, or a served Hookloop that reads its own (`--server`). */
interface ExportSource {
  /** The store or the server, for messages. */
  where: string
  /** Ids of every captured request and every delivery, oldest first. */
  all(): Promise<Selected>
  /** Ids of the rows the filters select of one kind, newest first, as the lists print them. */
  requests(values: ListFilterValues): Promise<number[]>
  deliveries(values: ListFilterValues): Promise<number[]>
  export(options: { format: ExportFormat; requestIds: number[]; deliveryIds: number[]; keepSecrets: boolean }): Promise<string>
  close(): Promise<void>
}

interface Selected {
  requestIds: number[]
  deliveryIds: number[]
}

async function storeSource(values: Parameters<typeof openStoreArg>[1]): Promise<ExportSource> {
  // The data key is asked for even to redact: redaction finds each signing secret by its value.
  const store = await openStoreArg('export', values)
  const reads = createListReads(store.engine)
  const now = Date.now()
  const progress = stderrProgress('export')
  return {
    where: store.where,
    all: async () => ({ requestIds: await reads.allRequestIds(), deliveryIds: await reads.allDeliveryIds() }),
    requests: async (filter) => (await reads.requests(await requestFilter('export', reads, filter, store.where, now))).map((r) => r.id),
    deliveries: async (filter) => (await reads.deliveries(await deliveryFilter('export', reads, filter, store.where, now))).map((d) => d.id),
    export: (options) => exportSelection(store, { ...options, now: Date.now(), onProgress: (done, total) => progress.update(done, total, 'rows read') }),
    async close() {
      progress.end()
      await store.engine.close()
    },
  }
}

async function serverSource(server: { url: URL; token: string }): Promise<ExportSource> {
  const client = await connectServer(server.url, server.token)
  const now = Date.now()
  const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id)
  return {
    where: client.where,
    // The lists newest first, as `export --data --all` reads them: by id.
    all: async () => ({
      requestIds: ids((await client.call('request.list', { limit: LIST_LIMIT_MAX })).requests).sort((a, b) => a - b),
      deliveryIds: ids((await client.call('delivery.list', { limit: LIST_LIMIT_MAX })).deliveries).sort((a, b) => a - b),
    }),
    requests: async (filter) => ids((await client.call('request.list', remoteRequestFilter('export', filter, now))).requests),
    deliveries: async (filter) => ids((await client.call('delivery.list', remoteDeliveryFilter('export', filter, now))).deliveries),
    async export(options) {
      if (Math.max(options.requestIds.length, options.deliveryIds.length) > SERVER_EXPORT_MAX) {
        throw new UsageError(`export: ${client.where} exports at most ${SERVER_EXPORT_MAX} requests and ${SERVER_EXPORT_MAX} deliveries at once: narrow the selection (--since, --endpoint, --limit …)`)
      }
      return (await client.call('export.selection', options)).text
    },
    close: async () => client.close(),
  }
}

/** The most ids of each kind one `export.selection` takes (shared/contract/messages.ts). */
const SERVER_EXPORT_MAX = 10_000

/** The ids the filters select: requests and deliveries each, unless the filters name one kind only. */
async function filteredIds(source: ExportSource, values: ListFilterValues): Promise<Selected> {
  const words = values.status ?? []
  const requestWords = words.filter((w) => (REQUEST_STATUSES as readonly string[]).includes(w))
  const deliveryWords = words.filter((w) => (DELIVERY_STATUSES as readonly string[]).includes(w))
  const wantRequests = values.subscription === undefined && (words.length === 0 || requestWords.length > 0)
  const wantDeliveries = words.length === 0 || deliveryWords.length > 0
  const requestIds = wantRequests ? await source.requests({ ...values, status: requestWords.length > 0 ? requestWords : undefined }) : []
  const deliveryIds = wantDeliveries ? await source.deliveries({ ...values, status: deliveryWords.length > 0 ? deliveryWords : undefined }) : []
  // Oldest first, as the ids given by hand are read.
  return { requestIds: requestIds.reverse(), deliveryIds: deliveryIds.reverse() }
}

export const exportCommand: Command = async (args) => {
  const parsed = commandArgs('export', USAGE, args, OPTIONS)
  if (!parsed) return 0
  const v = parsed.values
  if (!v.format) throw new UsageError('export: --format is required (hookloop export --help)')
  if (v.json && !v.out) throw new UsageError('export: --json reports what --out FILE holds; without --out the export itself is what stdout prints')
  const filtered = anyListFilter(v)
  if (v.all && filtered) throw new UsageError('export: --all takes everything; leave out the filters (--endpoint, --status …)')
  const requestIds = v.requests === undefined ? [] : parseIdList(v.requests, 'requests')
  const deliveryIds = v.deliveries === undefined ? [] : parseIdList(v.deliveries, 'deliveries')
  if (!v.all && !filtered && requestIds.length + deliveryIds.length === 0) {
    throw new UsageError('export: select something: --requests and/or --deliveries ids (hookloop requests and hookloop deliveries list them), filters such as --endpoint or --since, or --all')
  }
  const server = serverArg('export', args, v)
  let source: ExportSource | undefined
  let text: string
  try {
    source = server ? await serverSource(server) : await storeSource(v)
    if (v.all || filtered) {
      const selected = v.all ? await source.all() : await filteredIds(source, v)
      // Ids given by hand join those selected, each once.
      const givenRequests = new Set(requestIds)
      const givenDeliveries = new Set(deliveryIds)
      requestIds.push(...selected.requestIds.filter((id) => !givenRequests.has(id)))
      deliveryIds.push(...selected.deliveryIds.filter((id) => !givenDeliveries.has(id)))
      if (requestIds.length + deliveryIds.length === 0) throw new UsageError(`export: nothing in ${source.where} matches${v.all ? ' (the store holds no requests or deliveries)' : ' the filters'}`)
    }
    text = await source.export({ format: v.format, requestIds, deliveryIds, keepSecrets: v['keep-secrets'] })
  } catch (error) {
    if (error instanceof ExportSelectionError) throw new UsageError(`export: ${error.message}`)
    if (!(error instanceof ServerError)) throw error
    // What the server refused, as on a store: an id or an endpoint it does not have is a usage error.
    if (error.code === 'not_found' || error.code === 'bad_request') throw new UsageError(`export: ${error.message} on ${server?.url.origin ?? ''}`)
    process.stderr.write(`hookloop: export: ${error.message}\n`)
    return 1
  } finally {
    await source?.close()
  }
  if (v.out) {
    mkdirSync(dirname(resolve(v.out)), { recursive: true })
    writeFileSync(v.out, text, { mode: v['keep-secrets'] ? 0o600 : 0o644 })
    if (v['keep-secrets']) process.stderr.write(`hookloop: ${v.out} holds secrets and signatures (--keep-secrets): share it with care\n`)
    const bytes = Buffer.byteLength(text)
    if (v.json) process.stdout.write(JSON.stringify({ out: resolve(v.out), format: v.format, requests: requestIds, deliveries: deliveryIds, bytes }, null, 2) + '\n')
    else process.stdout.write(`wrote ${v.out} (${FORMAT_NAMES[v.format]}): ${plural(requestIds.length, 'request')}, ${plural(deliveryIds.length, 'delivery', 'deliveries')}, ${formatBytes(bytes)}${v['keep-secrets'] ? '' : ', secrets redacted'}\n`)
  } else {
    process.stdout.write(text)
  }
  return 0
}
