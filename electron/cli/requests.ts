// `hookloop requests [--data DIR | --store STORE] [filters] [--limit N] [--json]`: the captured
// requests of a data folder or a team store, newest first, led by the id `export --requests` and
// `resend` take.
import { REQUEST_STATUSES, type RequestListRow } from '../engine/store'
import { schemaVerdictLabel } from '../../shared/receiver'
import { listCommand } from './list-command'
import { remoteRequestFilter, requestFilter, REQUEST_STATUS_HELP } from './list-filters'
import { clockCell, isoSeconds } from './table'

const USAGE = `Usage: hookloop requests [--data DIR | --store STORE | --server URL] [filters] [--limit N] [--json]

Lists the captured requests of a data folder (or a team's store: --store; or a served Hookloop:
--server URL with an API token in $HOOKLOOP_TOKEN, the same rows), newest stored first.
The first column is the id that \`hookloop export --requests\` and \`hookloop resend\` take.
STORED is the wall time a request arrived, whatever clock it ran on; --since reads it too. CLOCK
says which clock the request's own time is on: wall, or a simulation's (given as time into that
run, never as a date). With --json: {"requests": [...]}.
{options}
Exit status: 0 listed (none is not an error), 2 bad usage or an endpoint not in the data folder.`

function verdictText(row: RequestListRow): string {
  if (row.refusedReason) return `refused (${row.refusedReason})`
  return row.verdict === 'invalid' && row.verifyReason ? `invalid (${row.verifyReason})` : row.verdict
}

/** "schema ✗ /pull_request/head/repo: required", as the timeline row says it; "-" when not judged. */
const schemaText = (row: RequestListRow): string => (row.schemaVerdict === null ? '-' : schemaVerdictLabel({ verdict: row.schemaVerdict, pointer: row.schemaPointer, expected: row.schemaExpected }))

export const requestsCommand = listCommand<RequestListRow>({
  name: 'requests',
  help: USAGE,
  statuses: REQUEST_STATUSES,
  statusHelp: REQUEST_STATUS_HELP,
  none: 'no captured requests match',
  rows: async (reads, values, where) => reads.requests(await requestFilter('requests', reads, values, where, Date.now())),
  remoteRows: async (server, values) => (await server.call('request.list', remoteRequestFilter('requests', values, Date.now()))).requests,
  columns: ['ID', 'STORED', 'ENDPOINT', 'REQUEST', 'EVENT ID', 'VERDICT', 'SCHEMA', 'DUP', 'ANSWER', 'CLOCK'],
  cells: (r) => [
    String(r.id),
    isoSeconds(r.storedAt),
    r.endpointSlug ?? '-',
    `${r.method} ${r.path}`,
    r.eventId ?? '-',
    verdictText(r),
    schemaText(r),
    r.duplicateNumber !== null && r.duplicateNumber > 1 ? `#${r.duplicateNumber}` : '-',
    r.responseStatus === null ? '-' : String(r.responseStatus),
    clockCell(r.receivedAt, { id: r.simulationId, startedAt: r.simulationStartedAt }),
  ],
})
