// `hookloop deliveries [--data DIR | --store STORE] [filters] [--limit N] [--json]`: the
// deliveries of a data folder or a team store, newest first, led by the id `export --deliveries`
// takes.
import { DELIVERY_STATUSES, type DeliveryListRow } from '../engine/store'
import { listCommand } from './list-command'
import { deliveryFilter, remoteDeliveryFilter } from './list-filters'
import { clockCell, isoSeconds } from './table'

const USAGE = `Usage: hookloop deliveries [--data DIR | --store STORE | --server URL] [filters] [--limit N] [--json]

Lists the deliveries (events sent under a subscription's retry policy) of a data folder (or a
team's store: --store; or a served Hookloop: --server URL with an API token in $HOOKLOOP_TOKEN,
the same rows), newest first. The first column is the id that \`hookloop export
--deliveries\` takes. EVENT ID is the id the consumer saw (a provider's evt_…, X-GitHub-Delivery
…), HOOKLOOP ID Hookloop's own beside it ('-' when the same); --event-id finds either. CREATED is
the wall time a delivery was made, whatever clock it ran on; --since reads it too. CLOCK says
which clock its schedule ran on: wall, or a simulation's (given as time into that run, never as a
date). With --json: {"deliveries": [...]}.
{options}
Exit status: 0 listed (none is not an error), 2 bad usage or an endpoint or subscription not in the data folder.`

export const deliveriesCommand = listCommand<DeliveryListRow>({
  name: 'deliveries',
  help: USAGE,
  statuses: DELIVERY_STATUSES,
  statusHelp: 'comma-separated: a row matches any of them',
  none: 'no deliveries match',
  rows: async (reads, values, where) => reads.deliveries(await deliveryFilter('deliveries', reads, values, where, Date.now())),
  remoteRows: async (server, values) => (await server.call('delivery.list', remoteDeliveryFilter('deliveries', values, Date.now()))).deliveries,
  // EVENT ID is the id the consumer saw (a provider's evt_…, X-GitHub-Delivery …); HOOKLOOP ID is
  // Hookloop's own beside it, '-' when they are the same.
  columns: ['ID', 'CREATED', 'SUBSCRIPTION', 'EVENT ID', 'HOOKLOOP ID', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST', 'CLOCK'],
  cells: (d) => [
    String(d.id),
    isoSeconds(d.createdWallAt ?? d.createdAt),
    d.subscriptionName ?? d.subscriptionId,
    d.consumerEventId ?? d.eventId,
    d.consumerEventId === null ? '-' : d.eventId,
    d.eventType,
    d.status,
    String(d.attempts),
    d.lastStatusCode === null ? '-' : String(d.lastStatusCode),
    clockCell(d.createdAt, { id: d.simulationId, startedAt: d.simulationStartedAt }),
  ],
})
