// `hookloop requests` and `hookloop deliveries`: the rows of a data folder the filters select,
// newest first, as a table led by their ids (or one JSON document with --json).
import { createListReads, type ListReads } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import type { Command } from './commands'
import { LIST_FILTER_OPTIONS, LIMIT_OPTION, type ListFilterValues } from './list-filters'
import { openStoreArg, STORE_OPTION } from './store-arg'
import { formatTable } from './table'

export interface ListKind<Row> {
  name: 'requests' | 'deliveries'
  help: string
  statuses: readonly string[]
  statusHelp: string
  /** What is printed on stderr when no row matches. */
  none: string
  /** `where` names the store in messages: its data folder or postgres://user@host:port/database. */
  rows: (reads: ListReads, values: ListFilterValues, where: string) => Promise<Row[]>
  columns: readonly string[]
  cells: (row: Row) => string[]
}

export const DEFAULT_LIST_LIMIT = 50

export function listOptions(statuses: readonly string[], statusHelp: string) {
  return {
    data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (${DATA_DIR_DEFAULT_HELP})` },
    store: STORE_OPTION,
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
    // Listing reads no secret: a folder sealed with the app's keychain key opens too, and a team
    // store needs no data key.
    const store = await openStoreArg(kind.name, v, { withoutSecrets: true })
    try {
      const rows = await kind.rows(createListReads(store.engine), v, store.where)
      if (v.json) process.stdout.write(JSON.stringify({ [kind.name]: rows }, null, 2) + '\n')
      else if (rows.length === 0) process.stderr.write(`hookloop: ${kind.none}\n`)
      else process.stdout.write(formatTable(kind.columns, rows.map(kind.cells)))
      return 0
    } finally {
      await store.engine.close()
    }
  }
}
