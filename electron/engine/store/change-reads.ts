// What the host's timeline watch reads to find changed timeline rows, on either store engine: rows
// after the last id it saw, a signature of every active delivery, and whether a request got its
// answer. Reads only; which tables changed is told by the store's change feed (change-feed.ts).
import type { AttemptRow } from './attempts'
import { COMMIT_ORDER_HORIZON } from './request-commit-order'
import type { SqlEngine } from './sql-engine'

export const WATCHED_TABLES = ['deliveries', 'attempts', 'requests'] as const
export type WatchedTable = (typeof WATCHED_TABLES)[number]

/** At most this many new rows per table per read: the rest come on the next one. */
const PAGE = 5000

const ANSWERED = 'CASE WHEN response_ms IS NOT NULL OR response_status IS NOT NULL THEN 1 ELSE 0 END'
const ANSWERED_BATCH = 100
const ANSWERED_SQL = `SELECT id, ${ANSWERED} AS answered FROM requests WHERE id IN (${Array.from({ length: ANSWERED_BATCH }, () => '?').join(', ')})`

export type ChangeReads = ReturnType<typeof createChangeReads>

export function createChangeReads(engine: SqlEngine) {
  const ids = async (sql: string, params: readonly unknown[]) => (await engine.all<{ id: number }>(sql, params)).map((row) => row.id)
  return {
    maxId: async (table: WatchedTable) => (await engine.get<{ id: number }>(`SELECT COALESCE(MAX(id), 0) AS id FROM ${table}`))?.id ?? 0,
    deliveriesAfter: (id: number) => ids(`SELECT id FROM deliveries WHERE id > ? ORDER BY id LIMIT ${PAGE}`, [id]),
    attemptsAfter: (id: number) => engine.all<Pick<AttemptRow, 'id' | 'delivery_id'>>(`SELECT id, delivery_id FROM attempts WHERE id > ? ORDER BY id LIMIT ${PAGE}`, [id]),
    requestsAfter: (id: number) => engine.all<{ id: number; answered: number }>(`SELECT id, ${ANSWERED} AS answered FROM requests WHERE id > ? ORDER BY id LIMIT ${PAGE}`, [id]),
    /** The highest commit_order of a team's PostgreSQL that no later commit can go below (request-commit-order.ts): where following the commits starts. */
    maxCommitOrder: async () => Number((await engine.get<{ n: number }>(`SELECT COALESCE(MAX(commit_order), 0) AS n FROM requests WHERE commit_order < ${COMMIT_ORDER_HORIZON}`))?.n ?? 0),
    /** Requests committed after the one numbered `commitOrder`, in that order, up to where every earlier transaction has ended (a team's PostgreSQL). */
    requestsCommittedAfter: (commitOrder: number) =>
      engine.all<{ id: number; answered: number; commit_order: number }>(
        `SELECT id, ${ANSWERED} AS answered, commit_order FROM requests WHERE commit_order > ? AND commit_order < ${COMMIT_ORDER_HORIZON} ORDER BY commit_order LIMIT ${PAGE}`,
        [commitOrder],
      ),
    /** Whether a committed request waits past that bound for an earlier transaction to end: read again soon. */
    // Ordered, so the bound is a walk of requests_by_commit_order from it: without the order the
    // planner, which cannot see the bound, may read the whole table for the one row.
    requestsHeldBack: async () => (await engine.get(`SELECT 1 AS held FROM requests WHERE commit_order >= ${COMMIT_ORDER_HORIZON} ORDER BY commit_order LIMIT 1`)) !== undefined,
    /** The ids of requests in (low, high]: rows another process numbered lower but committed later show up here. Ids only: bodies stay on disk. */
    requestIdsIn: (low: number, high: number) => ids('SELECT id FROM requests WHERE id > ? AND id <= ? ORDER BY id', [low, high]),
    /** Every pending or retrying delivery, with a signature that changes whenever its row does. */
    activeDeliveries: () =>
      engine.all<{ id: number; sig: string }>(
        `SELECT id, status || ':' || CAST(attempts AS TEXT) || ':' || COALESCE(CAST(next_attempt_at AS TEXT), '') || ':' || CAST(in_flight AS TEXT) || ':' || CAST(updated_at AS TEXT) AS sig
           FROM deliveries WHERE status IN ('pending', 'retrying')`,
      ),
    /** Whether each of these requests has its answer (1) or waits for it (0); ids not in the store are left out. */
    answered: async (requestIds: readonly number[]) => {
      const out = new Map<number, number>()
      for (let from = 0; from < requestIds.length; from += ANSWERED_BATCH) {
        // One statement text whatever the count (padded with NULL, which matches no id).
        const batch: (number | null)[] = requestIds.slice(from, from + ANSWERED_BATCH)
        while (batch.length < ANSWERED_BATCH) batch.push(null)
        const rows = await engine.all<{ id: number; answered: number }>(ANSWERED_SQL, batch)
        for (const row of rows) out.set(row.id, row.answered)
      }
      return out
    },
  }
}
