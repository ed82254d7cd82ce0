// `hookloop requests [--data DIR] [filters] [--limit N] [--json]`: the captured requests of a data
// folder, newest first, led by the id `export --requests` and `resend` take.
import { openDatabase, createListReads, type RequestListRow } from '../engine/store'
import { commandArgs } from './command-args'
import { DATA_DIR_DEFAULT_HELP, existingStoreFile } from './data-dir-arg'
import type { Command } from './commands'
import { DEFAULT_LIST_LIMIT, LIST_FILTER_OPTIONS, REQUEST_FILTER_HELP, requestFilter } from './list-filters'
import { formatTable, isoSeconds } from './table'

const USAGE = `Usage: hookloop requests [--data DIR] [--endpoint E] [--event-id P] [--status S] [--since T] [--limit N] [--json]

Lists the captured requests of a data folder, newest first. The first column is the id that
\`hookloop export --requests\` and \`hookloop resend\` take.
  --data DIR        the Hookloop data folder (${DATA_DIR_DEFAULT_HELP})
${REQUEST_FILTER_HELP}
  --limit N         at most N requests (default ${DEFAULT_LIST_LIMIT})
  --json            one JSON document: {"requests": [...]} (docs/cli.md, "JSON output")
Exit status: 0 listed (none is not an error), 2 bad usage or an endpoint not in the data folder.`

function verdictText(row: RequestListRow): string {
  if (row.refusedReason) return `refused (${row.refusedReason})`
  return row.verdict === 'invalid' && row.verifyReason ? `invalid (${row.verifyReason})` : row.verdict
}

export const requestsCommand: Command = async (args) => {
  const parsed = commandArgs('requests', USAGE, args, { data: { type: 'string' }, json: { type: 'boolean', default: false }, ...LIST_FILTER_OPTIONS })
  if (!parsed) return 0
  const v = parsed.values
  const { dataDir, file } = existingStoreFile('requests', v.data)
  // Listing reads no secret: a folder sealed with the app's keychain key opens too.
  const db = openDatabase({ file, withoutSecrets: true })
  try {
    const reads = createListReads(db)
    const rows = reads.requests(requestFilter('requests', reads, v, dataDir, Date.now()))
    if (v.json) {
      process.stdout.write(JSON.stringify({ requests: rows }, null, 2) + '\n')
      return 0
    }
    if (rows.length === 0) {
      process.stderr.write('hookloop: no captured requests match\n')
      return 0
    }
    const table = rows.map((r) => [
      String(r.id),
      isoSeconds(r.receivedAt),
      r.endpointSlug ?? '-',
      `${r.method} ${r.path}`,
      r.eventId ?? '-',
      verdictText(r),
      r.duplicateNumber !== null && r.duplicateNumber > 1 ? `#${r.duplicateNumber}` : '-',
      r.responseStatus === null ? '-' : String(r.responseStatus),
    ])
    process.stdout.write(formatTable(['ID', 'RECEIVED', 'ENDPOINT', 'REQUEST', 'EVENT ID', 'VERDICT', 'DUP', 'ANSWER'], table))
    return 0
  } finally {
    db.close()
  }
}
