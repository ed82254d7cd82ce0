// `hookloop requests` and `hookloop deliveries`: the rows of a data folder the filters select,
// newest first, as a table led by their ids (or one JSON document with --json).
import { openDatabase, createListReads, type ListReads } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP, existingStoreFile } from './data-dir-arg'
import type { Command } from './commands'
import { LIST_FILTER_OPTIONS, LIMIT_OPTION, type ListFilterValues } from './list-filters'
import { formatTable } from './table'

export interface ListKind<Row> {
  name: 'requests' | 'deliveries'
  help: string
  statuses: readonly string[]
  statusHelp: string
  /** What is printed on stderr when no row matches. */
  none: string
  rows: (reads: ListReads, values: ListFilterValues, dataDir: string) => Row[]
  columns: readonly string[]
  cells: (row: Row) => string[]
}

export const DEFAULT_LIST_LIMIT = 50

export function listOptions(statuses: readonly string[], statusHelp: string) {
  return {
    data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (${DATA_DIR_DEFAULT_HELP})` },
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
    const { dataDir, file } = existingStoreFile(kind.name, v.data)
    // Listing reads no secret: a folder sealed with the app's keychain key opens too.
    const db = openDatabase({ file, withoutSecrets: true })
    try {
      const rows = kind.rows(createListReads(db), v, dataDir)
      if (v.json) process.stdout.write(JSON.stringify({ [kind.name]: rows }, null, 2) + '\n')
      else if (rows.length === 0) process.stderr.write(`hookloop: ${kind.none}\n`)
      else process.stdout.write(formatTable(kind.columns, rows.map(kind.cells)))
      return 0
    } finally {
      db.close()
    }
  }
}
