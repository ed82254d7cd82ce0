// One retention batch: its condition, its selection and its delete in one transaction, by the
// history's stores made over that transaction (history.ts, sender-history.ts). On a data folder
// that is one IMMEDIATE transaction, which the file's write lock takes one at a time: two passes
// (two processes) never select the same rows. On PostgreSQL the pass lock (oneRetentionPass)
// keeps a second pass away, and a delivery selected is locked until the batch commits.
//
// On PostgreSQL a batch first takes the lock every commit that writes `requests` takes
// (engine-writer.ts): deleting a request, or unlinking one from a deleted attempt, moves its
// endpoint's counter row (request_counts, by trigger) as a capture does, and the two touching
// the same counters in a different order deadlock (40P01) and one of them fails. Taking turns
// costs a capture at most one short batch's wait.
import { REQUESTS_WRITE_LOCK } from './engine-writer'
import { createHistoryStore, type HistoryStore } from './history'
import { createSenderHistoryStore, type SenderHistoryStore } from './sender-history'
import type { SqlEngine } from './sql-engine'

export function inHistoryBatch<R>(engine: SqlEngine, work: (history: HistoryStore, sent: SenderHistoryStore) => Promise<R>): Promise<R> {
  return engine.transaction(async (tx) => {
    if (tx.kind === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))', [REQUESTS_WRITE_LOCK])
    return work(createHistoryStore(tx), createSenderHistoryStore(tx))
  })
}
