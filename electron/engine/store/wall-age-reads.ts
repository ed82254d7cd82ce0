// Deliveries in wall-age order across every subscription, without an index of their own on
// created_wall_at (which every publish would pay for, migration 18): each subscription's
// deliveries are walked on deliveries_by_subscription_wall (subscription_id, created_wall_at),
// each walk cut at the limit, and those few ordered streams merged here. Subscriptions are few,
// are never deleted, and every delivery names one (a foreign key), so the subscriptions table
// lists every stream. Used by the newest-first list (list-reads.ts) and by retention by age and
// by size (sender-history.ts).
import type { SqlEngine, StoreKind } from './sql-engine'

const SUBSCRIPTION_IDS = 'SELECT id FROM subscriptions ORDER BY id'

/** Every subscription's id (of one workspace, when given): one stream each. */
export async function subscriptionIds(engine: SqlEngine, workspace?: string): Promise<string[]> {
  if (workspace !== undefined) return (await engine.all<{ id: string }>('SELECT id FROM subscriptions WHERE workspace_id = ? ORDER BY id', [workspace])).map((row) => row.id)
  return (await engine.all<{ id: string }>(SUBSCRIPTION_IDS)).map((row) => row.id)
}

interface WallAged {
  id: number
  at: number | null
}

/**
 * Orders rows as `ORDER BY created_wall_at <direction>, id <direction>` does on `kind`: a NULL
 * wall time sorts below every number on SQLite and above every number on PostgreSQL, so the
 * merged list is the one a single statement over the whole table would have read.
 */
export function wallAgeOrder(kind: StoreKind, direction: 'oldest' | 'newest'): (a: WallAged, b: WallAged) => number {
  const nullRank = kind === 'sqlite' ? -Infinity : Infinity
  const sign = direction === 'oldest' ? 1 : -1
  return (a, b) => sign * ((a.at ?? nullRank) - (b.at ?? nullRank) || a.id - b.id)
}

/** The first `limit` rows of lists each already in `order`, in that order. */
export function mergeStreams<T>(streams: readonly (readonly T[])[], order: (a: T, b: T) => number, limit: number): T[] {
  return streams.flat().sort(order).slice(0, limit)
}
