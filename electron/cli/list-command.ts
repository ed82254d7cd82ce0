// `hookloop requests` and `hookloop deliveries`: the rows of a data folder the filters select,
// newest first, as a table led by their ids (or one JSON document with --json). With --server, the
// same rows read from a served Hookloop with an API token, printed the same way.
import { createListReads, type ListReads } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import type { Command } from './commands'
import { LIST_FILTER_OPTIONS, LIMIT_OPTION, type ListFilterValues } from './list-filters'
import { openStoreArg, STORE_OPTION } from './store-arg'
import { connectServer, SERVER_OPTIONS, ServerError, serverArg, type ServerClient } from './server-arg'
import { formatTable } from './table'
import { UsageError } from './usage-error'

export interface ListKind<Row> {
  name: 'requests' | 'deliveries'
  help: string
  statuses: readonly string[]
  statusHelp: string
  /** What is printed on stderr when no row matches. */
  none: string
  /** `where` names the store in messages: its data folder or postgres://user@host:port/database. */
  rows: (reads: ListReads, values: ListFilterValues, where: string) => Promise<Row[]>
  /** The same rows from a served Hookloop (`--server`). */
  remoteRows: (server: ServerClient, values: ListFilterValues) => Promise<Row[]>
  columns: readonly string[]
  cells: (row: Row) => string[]
}

export const DEFAULT_LIST_LIMIT = 50

export function listOptions(statuses: readonly string[], statusHelp: string) {
  return {
    data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (${DATA_DIR_DEFAULT_HELP})` },
    store: STORE_OPTION,
    ...SERVER_OPTIONS,
    ...LIST_FILTER_OPTIONS,
    status: { type: 'list', values: statuses, value: 'S', help: statusHelp },
    limit: { ...LIMIT_OPTION, default: DEFAULT_LIST_LIMIT },
    json: { type: 'boolean', help: 'one JSON document (docs/cli.md, "JSON output")' },
  } as const satisfies OptionSpecs
}

export function listCommand<Row>(kind: ListKind<Row>): Command {
  return async (args) => {
    const parsed = commandArgs(kind.name, kind.help, args, listOptions(kind.statuses, kind.statusHelp))
    if (!parsed) return 0
    const v = parsed.values
    const print = (rows: Row[]) => {
      if (v.json) process.stdout.write(JSON.stringify({ [kind.name]: rows }, null, 2) + '\n')
      else if (rows.length === 0) process.stderr.write(`hookloop: ${kind.none}\n`)
      else process.stdout.write(formatTable(kind.columns, rows.map(kind.cells)))
      return 0
    }
    const server = serverArg(kind.name, args, v)
    if (server) return remote(kind, server, v, print)
    // Listing reads no secret: a folder sealed with the app's keychain key opens too, and a team
    // store needs no data key.
    const store = await openStoreArg(kind.name, v, { withoutSecrets: true })
    try {
      return print(await kind.rows(createListReads(store.engine), v, store.where))
    } finally {
      await store.engine.close()
    }
  }
}

async function remote<Row>(kind: ListKind<Row>, server: { url: URL; token: string }, values: ListFilterValues, print: (rows: Row[]) => number): Promise<number> {
  let client: ServerClient | undefined
  try {
    client = await connectServer(server.url, server.token)
    return print(await kind.remoteRows(client, values))
  } catch (error) {
    if (!(error instanceof ServerError)) throw error
    // An endpoint or subscription the server does not have is a usage error, as on a store.
    if (error.code === 'not_found' || error.code === 'bad_request') throw new UsageError(`${kind.name}: ${error.message} on ${server.url.origin}`)
    process.stderr.write(`hookloop: ${kind.name}: ${error.message}\n`)
    return 1
  } finally {
    client?.close()
  }
}
