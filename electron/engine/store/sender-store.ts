// What the sender needs of its store beyond the statements of its tables (events.ts,
// deliveries.ts, attempts.ts), on either engine, so that the sender never asks which one it has:
// the attempt path's group-commit writer, the ids of new attempts, the attempt link key and the
// page cache. Each is the engine's own way of doing it (docs/ARCHITECTURE.md, "Claims"):
//
// - The writer: on a data folder, today's SqlWriter on the connection itself (inline) or on a
//   thread with its own connection to the file: a commit there is synchronous and costs no await
//   per statement, which is what bench:sender measures. On PostgreSQL, the same writer over the
//   engine (engine-writer.ts): each batch one awaited transaction that NOTIFYs what it wrote.
// - Attempt ids: on a data folder, blocks claimed through `settings` (id-claims.ts, one short
//   IMMEDIATE transaction per block, sync); on PostgreSQL, blocks of the attempts table's own
//   identity sequence (nextval: never the same id twice, whichever process asks, no lock held).
import { randomBytes } from 'node:crypto'
import { createAttemptLinkStore, KEY_BYTES, KEY_SETTING } from './attempt-links'
import type { WriteSql } from './changes'
import { growPageCache, pageCachePragma } from './database'
import { createEngineWriter } from './engine-writer'
import { createIdClaims } from './id-claims'
import { ID_BLOCK_SIZE, createIdSource } from './id-source'
import type { SqlEngine } from './sql-engine'
import { databaseOf } from './sqlite-engine'
import { createInlineWriter, type SqlWriter } from './sql-writer'
import { createSqlWriterThread } from './sql-writer-thread'
import { StoreError } from './store-error'

export interface AttemptWriterOptions {
  /**
   * A data folder only: commit on a worker thread with its own connection to the same file, so
   * SQLite work does not hold up the event loop (pass the nativeBinding given to openDatabase in
   * Electron). Ignored on PostgreSQL, whose commits never block the loop.
   */
  thread?: boolean | { nativeBinding?: string }
  /** A data folder only: the page cache of the writer's connection, in MiB. */
  cacheMib?: number
}

/** The attempt path's group-commit writer over `engine` (the statements by name: ATTEMPT_PATH_SQL). */
export function createAttemptWriter(engine: SqlEngine, statements: Readonly<Record<string, WriteSql>>, options: AttemptWriterOptions = {}): SqlWriter {
  const db = databaseOf(engine)
  if (!db) return createEngineWriter(engine, statements)
  const thread = options.thread && !db.memory ? options.thread : null
  if (!thread) return createInlineWriter(db, statements)
  return createSqlWriterThread({
    file: db.name,
    statements,
    pragmas: options.cacheMib === undefined ? [] : [pageCachePragma(options.cacheMib)],
    ...(typeof thread === 'object' && thread.nativeBinding ? { nativeBinding: thread.nativeBinding } : {}),
  })
}

/** Where a sender numbers its attempts: an id is known before the row is written (it travels in x-hookloop-attempt). */
export interface AttemptIds {
  /** The next id: a number at once while a block lasts, a Promise when a new block is fetched from a server. */
  next(): number | Promise<number>
  /** Give unused ids back where the engine can (a data folder's claims); the source is not used after. */
  release(): void
}

export function createAttemptIds(engine: SqlEngine): AttemptIds {
  const db = databaseOf(engine)
  if (db) return createIdSource(createIdClaims(db, 'attempts'))
  // PostgreSQL: a sequence hands each id out once, to whichever session asks, without a lock. A
  // block's ids are not contiguous when processes ask at once; they need not be.
  let block: number[] = []
  let fetching: Promise<void> | null = null
  const fetchBlock = () =>
    (fetching ??= engine
      .all<{ id: number }>("SELECT nextval(pg_get_serial_sequence('attempts', 'id')) AS id FROM generate_series(1, ?)", [ID_BLOCK_SIZE])
      .then((rows) => void block.push(...rows.map((row) => Number(row.id))))
      .finally(() => (fetching = null)))
  const next = async (): Promise<number> => {
    while (block.length === 0) await fetchBlock()
    return block.shift() as number
  }
  return {
    next: () => (block.length > 0 ? (block.shift() as number) : next()),
    release: () => {
      block = []
    },
  }
}

/**
 * The store's attempt link key (attempt-links.ts), made on first use: every process on the store
 * signs and checks x-hookloop-attempt with the same one (two racing agree on the first written).
 */
export async function attemptLinkKey(engine: SqlEngine): Promise<Buffer> {
  const db = databaseOf(engine)
  if (db) return createAttemptLinkStore(db).key()
  const fresh = JSON.stringify(randomBytes(KEY_BYTES).toString('base64'))
  await engine.run('INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [KEY_SETTING, fresh])
  const row = await engine.get<{ value_json: string }>('SELECT value_json FROM settings WHERE key = ?', [KEY_SETTING])
  const key = Buffer.from(JSON.parse(row?.value_json ?? '""') as string, 'base64')
  if (key.length !== KEY_BYTES) throw new StoreError('open_failed', `the attempt link key in settings (${KEY_SETTING}) is not ${KEY_BYTES} bytes of base64`)
  return key
}

/** A data folder's page cache grown to `mib` (a sender's working set); a server keeps its own. */
export function growSenderCache(engine: SqlEngine, mib: number): void {
  const db = databaseOf(engine)
  if (db) growPageCache(db, mib)
}
