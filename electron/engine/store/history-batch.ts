// One retention batch: its condition, its selection and its delete in one transaction, by the
// history's stores made over that transaction (history.ts, sender-history.ts). On a data folder
// that is one IMMEDIATE transaction, which the file's write lock takes one at a time: two passes
// (two processes) never select the same rows. On PostgreSQL the pass lock (oneRetentionPass)
// keeps a second pass away, and a delivery selected is locked until the batch commits.
import { createHistoryStore, type HistoryStore } from './history'
import { createSenderHistoryStore, type SenderHistoryStore } from './sender-history'
import type { SqlEngine } from './sql-engine'

export function inHistoryBatch<R>(engine: SqlEngine, work: (history: HistoryStore, sent: SenderHistoryStore) => Promise<R>): Promise<R> {
  return engine.transaction((tx) => work(createHistoryStore(tx), createSenderHistoryStore(tx)))
}
