// What a running server says about its store to the probes and metrics (host/probe-routes.ts):
// whether the store answers at all, and how many wall-clock deliveries are due and not yet sent.
// Through SqlEngine, so the same reads answer on a data folder and on a team's PostgreSQL.
import { RUNS_ON_CLOCK, runsOnParams } from './deliveries'
import type { SqlEngine } from './sql-engine'

export interface DueQueue {
  /** Deliveries on the wall clock whose next attempt is due at or before `now` and not started. */
  due: number
  /** The earliest due time among them (ms), null when none is due. */
  oldestDueAt: number | null
}

export interface HealthReads {
  /** One cheap statement on a real table: resolves when the store answers, throws when it does not. */
  ping(): Promise<void>
  dueQueue(now: number): Promise<DueQueue>
}

// A table every store has from its first migration: reading it proves the schema is there, not
// only the connection.
const PING_SQL = 'SELECT 1 AS one FROM endpoints LIMIT 1'
// Walks deliveries_due (next_attempt_at IS NOT NULL) up to now; the wall clock's deliveries only,
// the ones real traffic waits on (a running simulation's are on its own clock).
const DUE_QUEUE_SQL = `SELECT COUNT(*) AS due, MIN(next_attempt_at) AS oldest FROM deliveries
  WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? AND ${RUNS_ON_CLOCK}`

export function createHealthReads(engine: SqlEngine): HealthReads {
  return {
    async ping() {
      await engine.get(PING_SQL)
    },
    async dueQueue(now) {
      // PostgreSQL's COUNT and a BIGINT column come back as strings: numbers here, once.
      const row = await engine.get<{ due: number | string; oldest: number | string | null }>(DUE_QUEUE_SQL, [now, ...runsOnParams(null)])
      const oldest = row?.oldest ?? null
      return { due: Number(row?.due ?? 0), oldestDueAt: oldest === null ? null : Number(oldest) }
    },
  }
}
