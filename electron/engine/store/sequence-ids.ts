// Where a process numbers its rows on a team's PostgreSQL: blocks of the table's own identity
// sequence (nextval), taken ahead so that next() stays synchronous like a data folder's id source
// (id-source.ts): the receiver needs a request's id the moment its head arrives. A sequence hands
// each value out once, to whichever session asks, without a lock, so two processes never number
// two rows alike; a block's ids are not contiguous when processes ask at once, and need not be.
//
// The next block is asked for while half of the current one is left; a burst that empties both
// before the server answers makes the following block larger (up to MAX_BLOCK) and has next()
// refuse with a StoreError until ready() resolves: a caller that can wait awaits ready() first.
import type { ClaimedTable } from './id-claims'
import { ID_BLOCK_SIZE, type IdSource } from './id-source'
import type { SqlEngine } from './sql-engine'
import { StoreError } from './store-error'

const MAX_BLOCK = 4096

export interface SequenceIdSource extends IdSource {
  /** Resolves once next() has an id at hand (at once while a block lasts); rejects when the server cannot be asked. */
  ready(): Promise<void>
  /** Ids at hand, not yet handed out. */
  inHand(): number
}

export async function createSequenceIdSource(engine: SqlEngine, table: ClaimedTable, blockSize: number = ID_BLOCK_SIZE): Promise<SequenceIdSource> {
  let ids: number[] = []
  let at = 0
  let size = blockSize
  let fetching: Promise<void> | null = null
  let failure: Error | null = null
  const left = () => ids.length - at
  const fetchBlock = (): Promise<void> =>
    (fetching ??= engine
      .all<{ id: number | string }>(`SELECT nextval(pg_get_serial_sequence('${table}', 'id')) AS id FROM generate_series(1, ?)`, [size])
      .then((rows) => {
        failure = null
        ids = ids.slice(at).concat(rows.map((row) => Number(row.id)))
        at = 0
      })
      .catch((error: unknown) => {
        failure = error instanceof Error ? error : new Error(String(error))
      })
      .finally(() => (fetching = null)))
  const ready = async (): Promise<void> => {
    while (left() === 0) {
      await fetchBlock()
      if (left() === 0 && failure) throw new StoreError('unreachable', `could not take ids for ${table} from the store at ${engine.where}: ${failure.message}`, { cause: failure })
    }
  }
  await ready()
  return {
    next() {
      if (left() <= size / 2) {
        // Asked again before the last block arrived: this process numbers rows faster than one
        // block per round trip, so the next block is larger.
        if (fetching && left() === 0) size = Math.min(size * 2, MAX_BLOCK)
        void fetchBlock()
      }
      if (left() === 0) throw new StoreError('unreachable', `no ids for ${table} at hand yet from the store at ${engine.where}${failure ? `: ${failure.message}` : ''}`)
      return ids[at++] as number
    },
    // Another process may number rows of this table at any moment: its rows are in the store.
    sharing: () => true,
    // A sequence takes nothing back: ids not used are a gap, which is harmless.
    release() {
      ids = []
      at = 0
    },
    ready,
    inHand: left,
  }
}
