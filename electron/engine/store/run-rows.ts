// What one scenario run made on a team's store, removed when the run ends (scenarios/run.ts): its
// endpoints with their rules and captured requests, its subscriptions with their deliveries,
// attempts and the events only they carried, its simulation. Left behind, every CI run added an
// endpoint and a subscription to the team's lists, and a person's "send to every subscription"
// delivered to each of them. The run's report (its output, --report, JUnit) is its record.
//
// One transaction: a team's UI never sees half a run gone. On PostgreSQL it takes the requests'
// write lock whole (request-locks.ts), as a retention batch does: the deletes move the counts of
// many groups at once.
import { requestCountsTable } from './count-definitions'
import { LOCK_REQUESTS_WHOLE_SQL } from './request-locks'
import { noteWrite } from './engine-writes'
import { jsonList } from './engine-spelling'
import { createHistoryStore } from './history'
import type { SqlEngine } from './sql-engine'

export interface RunRows {
  endpointIds: readonly string[]
  subscriptionIds: readonly string[]
  /** The run's own simulation (a run on a team's store always has one). */
  simulationId: string | null
}

export async function removeRunRows(engine: SqlEngine, run: RunRows): Promise<void> {
  const texts = `(${jsonList(engine.kind, 'text')})`
  const endpoints = JSON.stringify(run.endpointIds)
  const subscriptions = JSON.stringify(run.subscriptionIds)
  await engine.transaction(async (tx) => {
    if (tx.kind === 'postgres') await tx.get(LOCK_REQUESTS_WHOLE_SQL)
    const deliveries = `SELECT id FROM deliveries WHERE subscription_id IN ${texts}`
    const events = (await tx.all<{ event_id: string }>(`SELECT DISTINCT event_id FROM deliveries WHERE subscription_id IN ${texts}`, [subscriptions])).map((row) => row.event_id)
    // A request elsewhere that one of the run's attempts made (a subscription to a URL of the
    // team's receiver) stays, no longer linked to an attempt that is gone.
    await tx.run(`UPDATE requests SET attempt_id = NULL WHERE attempt_id IN (SELECT id FROM attempts WHERE delivery_id IN (${deliveries})) AND (endpoint_id IS NULL OR endpoint_id NOT IN ${texts})`, [subscriptions, endpoints])
    const requests = (await tx.all<{ id: number }>(`SELECT id FROM requests WHERE endpoint_id IN ${texts}`, [endpoints])).map((row) => Number(row.id))
    await createHistoryStore(tx).deleteIds(requests)
    await tx.run(`DELETE FROM attempts WHERE delivery_id IN (${deliveries})`, [subscriptions])
    await tx.run(`DELETE FROM deliveries WHERE subscription_id IN ${texts}`, [subscriptions])
    await tx.run(`DELETE FROM events WHERE id IN ${texts} AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = events.id)`, [JSON.stringify(events)])
    await tx.run(`DELETE FROM subscriptions WHERE id IN ${texts}`, [subscriptions])
    await tx.run(`DELETE FROM rules WHERE endpoint_id IN ${texts}`, [endpoints])
    await tx.run(`DELETE FROM endpoints WHERE id IN ${texts}`, [endpoints])
    // The counters' rows of endpoints that are gone, emptied by the deletes above (on PostgreSQL
    // each endpoint's shards, whose sum is read as its counter: request_counts is their view).
    await tx.run(`DELETE FROM ${requestCountsTable(tx.kind)} WHERE endpoint_key IN (SELECT endpoint_key FROM request_counts WHERE endpoint_key IN ${texts} AND requests = 0)`, [endpoints])
    if (run.simulationId !== null) await tx.run(`DELETE FROM simulations WHERE id = ? AND NOT EXISTS (SELECT 1 FROM deliveries WHERE simulation_id = ?)`, [run.simulationId, run.simulationId])
    await noteWrite(tx, ['endpoints', 'rules', 'requests', 'subscriptions', 'events', 'deliveries', 'attempts', 'simulations'])
  })
}
