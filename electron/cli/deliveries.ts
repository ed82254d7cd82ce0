// `hookloop deliveries [--data DIR] [filters] [--limit N] [--json]`: the deliveries of a data
// folder, newest first, led by the id `export --deliveries` takes.
import { openDatabase, createListReads } from '../engine/store'
import { commandArgs } from './command-args'
import { DATA_DIR_DEFAULT_HELP, existingStoreFile } from './data-dir-arg'
import type { Command } from './commands'
import { DEFAULT_LIST_LIMIT, DELIVERY_FILTER_HELP, LIST_FILTER_OPTIONS, deliveryFilter } from './list-filters'
import { formatTable, isoSeconds } from './table'

const USAGE = `Usage: hookloop deliveries [--data DIR] [--endpoint E] [--subscription S] [--event-id P] [--status S] [--since T] [--limit N] [--json]

Lists the deliveries (events sent under a subscription's retry policy) of a data folder, newest
first. The first column is the id that \`hookloop export --deliveries\` takes.
  --data DIR        the Hookloop data folder (${DATA_DIR_DEFAULT_HELP})
${DELIVERY_FILTER_HELP}
  --limit N         at most N deliveries (default ${DEFAULT_LIST_LIMIT})
  --json            one JSON document: {"deliveries": [...]} (docs/cli.md, "JSON output")
Exit status: 0 listed (none is not an error), 2 bad usage or an endpoint or subscription not in the data folder.`

export const deliveriesCommand: Command = async (args) => {
  const parsed = commandArgs('deliveries', USAGE, args, { data: { type: 'string' }, json: { type: 'boolean', default: false }, ...LIST_FILTER_OPTIONS })
  if (!parsed) return 0
  const v = parsed.values
  const { dataDir, file } = existingStoreFile('deliveries', v.data)
  const db = openDatabase({ file, withoutSecrets: true })
  try {
    const reads = createListReads(db)
    const rows = reads.deliveries(deliveryFilter('deliveries', reads, v, dataDir, Date.now()))
    if (v.json) {
      process.stdout.write(JSON.stringify({ deliveries: rows }, null, 2) + '\n')
      return 0
    }
    if (rows.length === 0) {
      process.stderr.write('hookloop: no deliveries match\n')
      return 0
    }
    const table = rows.map((d) => [
      String(d.id),
      isoSeconds(d.createdWallAt ?? d.createdAt),
      d.subscriptionName ?? d.subscriptionId,
      d.eventId,
      d.eventType,
      d.status,
      String(d.attempts),
      d.lastStatusCode === null ? '-' : String(d.lastStatusCode),
      d.simulationId === null ? 'wall' : `simulation ${d.simulationId}`,
    ])
    process.stdout.write(formatTable(['ID', 'CREATED', 'SUBSCRIPTION', 'EVENT ID', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST', 'CLOCK'], table))
    return 0
  } finally {
    db.close()
  }
}
