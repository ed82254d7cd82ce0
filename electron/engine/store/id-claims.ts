// Ids for rows a process numbers itself before they are written: the receiver's group-commit
// writer needs a request's id the moment it arrives (its events, its outcome and its duplicates
// point at it) while the row is committed later, on another connection. Two processes on one data
// folder (the app and `hookloop listen`) would both count on from MAX(id) and write the same id
// twice: the second row fails its commit and is lost. So ids are claimed from the store in small
// blocks, in one IMMEDIATE transaction that bumps a counter kept in `settings` (no schema change):
// no two claims overlap, whichever process makes them. A claim is one short write per block.
import type { Database } from 'better-sqlite3'

export type ClaimedTable = 'requests' | 'forward_legs' | 'attempts'

export interface IdBlock {
  /** The first id of the block. */
  first: number
  /** The last id of the block (inclusive). */
  last: number
  /** Ids were claimed before this block and are not all in the table yet: another process is numbering rows here (or one stopped without giving its ids back). */
  othersHold?: boolean
}

export function createIdClaims(db: Database, table: ClaimedTable) {
  const key = `ids.${table}`
  const readNext = db.prepare<[string], string>('SELECT value_json FROM settings WHERE key = ?').pluck()
  const writeNext = db.prepare<[string, string]>('INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json')
  const maxId = db.prepare<[], number>(`SELECT COALESCE(MAX(id), 0) FROM ${table}`).pluck()
  const claim = db.transaction((count: number): IdBlock => {
    const stored = readNext.get(key)
    const counted = stored === undefined ? 0 : Number(JSON.parse(stored))
    // Rows written before claims existed (or by an older Hookloop) count too.
    const first = Math.max(Number.isSafeInteger(counted) ? counted : 0, (maxId.get() ?? 0) + 1)
    writeNext.run(key, JSON.stringify(first + count))
    return { first, last: first + count - 1, othersHold: Number.isSafeInteger(counted) && counted > (maxId.get() ?? 0) + 1 }
  })
  const counter = (): number | undefined => {
    const stored = readNext.get(key)
    return stored === undefined ? undefined : Number(JSON.parse(stored))
  }
  const release = db.transaction((block: IdBlock, next: number): void => {
    if (counter() === block.last + 1) writeNext.run(key, JSON.stringify(next))
  })
  return {
    /** A block of `count` ids no other claim (in this process or another) will ever hand out. */
    claim: (count: number): IdBlock => claim.immediate(count),
    /** Whether no claim was made since this block (the next ids anyone takes are still its own). */
    isLatest: (block: IdBlock): boolean => counter() === block.last + 1,
    /** Gives the unused end of the latest block back (from `next` on), so ids run on without a gap after a restart. */
    release: (block: IdBlock, next: number): void => release.immediate(block, next),
  }
}
