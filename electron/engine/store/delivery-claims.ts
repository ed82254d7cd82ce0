// Claiming due deliveries in batches, on either engine: each process that sends takes up to
// `limit` deliveries that are due on its clock and that no attempt holds, marks them its own until
// `leaseUntil` (claimed_by, lease_until) and unschedules them, in one statement. On a team's
// PostgreSQL the rows are picked FOR UPDATE SKIP LOCKED: processes claiming at once each take
// different rows without waiting for one another, and no row is taken twice. On SQLite the
// statement holds the file's write lock, so two claims never interleave. (The sender of a data
// folder claims one delivery at a time today: deliveries.ts `claim`; docs/ARCHITECTURE.md, "Claims".)
import { RUNS_ON_CLOCK, runsOnParams } from './deliveries'
import type { SqlEngine } from './sql-engine'

export interface DueClaim {
  /** Who claims: host:pid:sender (sender/claim-owner.ts). */
  owner: string
  /** Now, on the claimer's clock: deliveries due at or before it are taken. */
  now: number
  /** Wall time the claim lasts until (the attempt's timeout and a margin). */
  leaseUntil: number
  /** The running simulation whose clock the claimer keeps, or null: the wall clock. */
  clock: string | null
  limit: number
}

/** The ids claimed, in id order. */
export async function claimDue(engine: SqlEngine, claim: DueClaim): Promise<number[]> {
  // SKIP LOCKED: a row another claimer is taking right now is left to it, not waited for. The
  // outer in_flight = 0 is checked again on the row as it is when it is updated.
  const lock = engine.kind === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : ''
  const rows = await engine.all<{ id: number }>(
    `UPDATE deliveries SET in_flight = 1, next_attempt_at = NULL, claimed_by = ?, lease_until = ?
      WHERE in_flight = 0 AND id IN (SELECT id FROM deliveries INDEXED BY deliveries_due
                    WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? AND in_flight = 0 AND ${RUNS_ON_CLOCK}
                    ORDER BY next_attempt_at, id LIMIT ? ${lock})
      RETURNING id`,
    [claim.owner, claim.leaseUntil, claim.now, ...runsOnParams(claim.clock), claim.limit],
  )
  return rows.map((row) => row.id).sort((a, b) => a - b)
}
