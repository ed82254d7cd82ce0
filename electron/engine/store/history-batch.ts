// One retention batch: its condition, its selection and its delete in one transaction, by the
// history's stores made over that transaction (history.ts, sender-history.ts). On a data folder
// that is one IMMEDIATE transaction, which the file's write lock takes one at a time: two passes
// (two processes) never select the same rows. On PostgreSQL the pass lock (oneRetentionPass)
// keeps a second pass away, and a delivery selected is locked until the batch commits.
//
// On PostgreSQL a batch first takes the requests' write lock whole (request-locks.ts), which
// every commit that captures holds shared: deleting requests, or unlinking them from deleted
// attempts, moves their groups' counts (request_counts, by trigger), and a batch touches many
// groups at once, more than it should lock one by one. Taking turns costs a capture at most one
// short batch's wait.
import { LOCK_REQUESTS_WHOLE_SQL } from './request-locks'
import { createHistoryStore, type HistoryStore } from './history'
import { createSenderHistoryStore, type SenderHistoryStore } from './sender-history'
import type { SqlEngine } from './sql-engine'

export function inHistoryBatch<R>(engine: SqlEngine, work: (history: HistoryStore, sent: SenderHistoryStore) => Promise<R>): Promise<R> {
  return engine.transaction(async (tx) => {
    if (tx.kind === 'postgres') await tx.get(LOCK_REQUESTS_WHOLE_SQL)
    return work(createHistoryStore(tx), createSenderHistoryStore(tx))
  })
}
