// Claiming due deliveries in batches, on either engine: each process that sends takes up to
// `limit` deliveries that are due on its clock and that no attempt holds, marks them its own until
// `leaseUntil` (claimed_by, lease_until) and unschedules them, in one statement. On a team's
// PostgreSQL the rows are picked FOR UPDATE SKIP LOCKED: processes claiming at once each take
// different rows without waiting for one another, and no row is taken twice. On SQLite the
// statement holds the file's write lock, so two claims never interleave. (The sender claims the
// entries its scheduler found due instead, several in one statement: `claimEach` below;
// docs/ARCHITECTURE.md, "Claims".)
import { RUNS_ON_CLOCK, runsOnParams } from './deliveries'
import { noteWrite } from './engine-writes'
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

/** One delivery a process means to send: it is claimed only if still due at `dueAt` with no attempt in flight. */
export interface EntryClaim {
  id: number
  /** The due time the claimer's scheduler found (deliveries.next_attempt_at). */
  dueAt: number
  /** Wall time this claim lasts until (its attempt's timeout and a margin). */
  leaseUntil: number
}

/** Most claims one statement takes (3 parameters each, far below either engine's limit). */
export const MAX_CLAIMS_PER_STATEMENT = 200

/**
 * deliveries.ts `claim` for several deliveries in one statement (one commit): each row is claimed
 * on the same condition as alone — still due at its `dueAt`, no attempt in flight — and takes its
 * own lease. Returns the ids this call claimed; the others were taken or moved by someone else.
 * The ids must differ. On PostgreSQL the rows are locked in id order (FOR UPDATE, then re-checked
 * as they are once locked), so claimers whose batches overlap wait for one another, as single
 * claims do, and never deadlock; on SQLite the statement holds the file's write lock.
 */
export async function claimEach(engine: SqlEngine, owner: string, claims: readonly EntryClaim[]): Promise<Set<number>> {
  if (claims.length === 0) return new Set()
  if (claims.length > MAX_CLAIMS_PER_STATEMENT) throw new Error(`claimEach takes at most ${MAX_CLAIMS_PER_STATEMENT} claims, not ${claims.length}`)
  if (new Set(claims.map((c) => c.id)).size !== claims.length) throw new Error('claimEach: a delivery named twice')
  const lock = engine.kind === 'postgres' ? 'FOR UPDATE' : ''
  const leases = claims.map(() => 'WHEN ? THEN CAST(? AS BIGINT)').join(' ')
  const due = claims.map(() => '(id = ? AND next_attempt_at = ?)').join(' OR ')
  const rows = await engine.all<{ id: number }>(
    `UPDATE deliveries SET in_flight = 1, next_attempt_at = NULL, claimed_by = ?, lease_until = CASE id ${leases} END
      WHERE in_flight = 0 AND id IN (SELECT id FROM deliveries WHERE in_flight = 0 AND (${due}) ORDER BY id ${lock})
      RETURNING id`,
    [owner, ...claims.flatMap((c) => [c.id, c.leaseUntil]), ...claims.flatMap((c) => [c.id, c.dueAt])],
  )
  if (rows.length > 0) await noteWrite(engine, ['deliveries'])
  return new Set(rows.map((row) => Number(row.id)))
}
