// Where a process takes the ids of the rows it numbers: blocks claimed from the store
// (store/id-claims.ts), used in order. After 100 ms a block is kept only while no other claim was
// made since (one read); otherwise the rest is given up, so ids stay close to the order rows are
// committed in across processes: the timeline watch reads new rows by id and looks back a bounded
// window (ID_LOOKBACK) for rows another process numbered lower but committed later. Alone on a
// folder, a process numbers its rows 1, 2, 3 … and gives the unused ids back when it closes.
import type { IdBlock } from './id-claims'

/** Ids per claim: one short write transaction per this many rows. */
export const ID_BLOCK_SIZE = 64
const BLOCK_LIFETIME_MS = 100
/** How often sharing() reads the claim counter again while this process numbers rows alone. */
const SHARING_CHECK_MS = 10
/** How far below the newest id a row committed late by another process may be (room for several thousand requests a second between processes). */
export const ID_LOOKBACK = 512

export interface IdClaims {
  claim(count: number): IdBlock
  isLatest(block: IdBlock): boolean
  release(block: IdBlock, next: number): void
}

export interface IdSource {
  next(): number
  /** Whether another process has been seen numbering rows of this table (latched): its rows are in the store, not in this one's memory. */
  sharing(): boolean
  /** Give the unused ids back (on close); the source is not used after. */
  release(): void
}

export function createIdSource(claims: IdClaims, now: () => number = () => performance.now()): IdSource {
  let block: IdBlock | null = null
  let next = 1
  let checkedAt = -Infinity
  let shared = false
  let sharingCheckedAt = -Infinity
  return {
    next() {
      const at = now()
      if (block && next <= block.last && at - checkedAt > BLOCK_LIFETIME_MS) {
        if (!claims.isLatest(block)) {
          block = null
          shared = true
        }
        checkedAt = at
      }
      if (!block || next > block.last) {
        const previous = block
        block = claims.claim(ID_BLOCK_SIZE)
        // Ids held by others show at the first claim (claimed before, not in the table). Later, the
        // table lags this process's own ids (its rows wait in the writer): a block that follows its
        // last one says no one else claimed between them, whatever MAX(id) reads.
        if (previous === null ? block.othersHold : block.first !== previous.last + 1) shared = true
        next = block.first
        checkedAt = at
      }
      return next++
    },
    // Asked before a lookup that only another process could make needed (every keyed request):
    // one read of the claim counter while alone, at most every SHARING_CHECK_MS, not only at the
    // block's next lifetime check. Another process's rows reach the file a group commit after it
    // claims its ids anyway, so a few milliseconds more of not knowing loses nothing it could see.
    sharing() {
      if (shared || block === null) return shared
      const at = now()
      if (at - sharingCheckedAt < SHARING_CHECK_MS) return shared
      sharingCheckedAt = at
      if (!claims.isLatest(block)) shared = true
      return shared
    },
    release() {
      if (block && next <= block.last) claims.release(block, next)
      block = null
    },
  }
}
