import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../electron/engine/store'
import { createInlineWriter, type SqlWriter } from '../../../electron/engine/store/sql-writer'
import { createSqlWriterThread } from '../../../electron/engine/store/sql-writer-thread'
import { makeTempDir } from '../../support/temp-dir'

// The group-commit writer, inline and on its thread, against a real SQLite file: what a write()
// promise means (committed, visible to the caller's connection), one write failing alone, buffers
// stored byte for byte, and flushNow/close committing what is queued.

// kv is no table of the store's schema: these statements name none for the change hub.
const SQL = {
  put: { sql: 'INSERT INTO kv (k, v, blob) VALUES (?, ?, ?)', params: ['k', 'v', 'blob'], tables: [] },
  bump: { sql: 'UPDATE kv SET v = v + ? WHERE k = ?', params: ['by', 'k'], tables: [] },
  // Placeholder markers that are text to SQLite: in a string literal, a comment, a quoted name.
  quoted: { sql: "INSERT INTO kv (k, v, \"blob\") VALUES (? || ' pays ''$x'' at 12:30 @noon', ? /* :v */, NULL) -- $tail\n", params: ['k', 'v'], tables: [] },
} as const

/** A fresh SQLite file holding the one kv table these writes go to. */
function kvFile(prefix: string): { file: string; db: Database; close(): void } {
  const temp = makeTempDir(prefix)
  const file = join(temp.dir, 'w.db')
  const db = openDatabase({ file, migrations: [{ version: 1, name: 'kv', sql: 'CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL, blob BLOB)' }] })
  const close = (): void => {
    db.close()
    temp.cleanup()
  }
  return { file, db, close }
}

describe.each(['inline', 'thread'] as const)('SqlWriter (%s)', (mode) => {
  let kv: ReturnType<typeof kvFile>
  let db: Database
  let writer: SqlWriter

  function open(): void {
    kv = kvFile('hookloop-sql-writer-')
    db = kv.db
    writer = mode === 'inline' ? createInlineWriter(db, SQL) : createSqlWriterThread({ file: kv.file, statements: SQL })
  }
  const count = () => db.prepare('SELECT COUNT(*) FROM kv').pluck().get() as number

  afterEach(() => {
    writer.close()
    kv.close()
  })

  it('a resolved write is committed and visible on the caller connection, with its statements together', async () => {
    open()
    const body = Buffer.from('héllo bytes\u0000\u00ff')
    await Promise.all([
      writer.write([
        ['put', { k: 'a', v: 1, blob: body.subarray(0, 5) }],
        ['bump', { k: 'a', by: 41 }],
      ]),
      writer.write([['put', { k: 'b', v: 2, blob: null }]]),
    ])
    expect(db.prepare('SELECT k, v FROM kv ORDER BY k').all()).toEqual([
      { k: 'a', v: 42 },
      { k: 'b', v: 2 },
    ])
    expect((db.prepare("SELECT blob FROM kv WHERE k = 'a'").pluck().get() as Buffer).equals(body.subarray(0, 5))).toBe(true)
    expect(writer.pending()).toBe(0)
  })

  it("a quoted '$x' or '@noon', and markers in a comment or a quoted name, stay text: only real placeholders are bound", async () => {
    open()
    await writer.write([['quoted', { k: 'Ann', v: 7 }]])
    expect(db.prepare('SELECT k, v FROM kv').all()).toEqual([{ k: "Ann pays '$x' at 12:30 @noon", v: 7 }])
  })

  it('a failing write is rejected alone and leaves nothing behind; the others commit', async () => {
    open()
    await writer.write([['put', { k: 'dup', v: 1, blob: null }]])
    const results = await Promise.allSettled([
      writer.write([['put', { k: 'x', v: 1, blob: null }]]),
      // The second statement fails (primary key): the first one of the same write must roll back.
      writer.write([
        ['put', { k: 'y', v: 1, blob: null }],
        ['put', { k: 'dup', v: 2, blob: null }],
      ]),
      writer.write([['put', { k: 'z', v: 1, blob: null }]]),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/)
    expect(db.prepare('SELECT k FROM kv ORDER BY k').pluck().all()).toEqual(['dup', 'x', 'z'])
  })

  it('names a missing parameter or an unknown statement instead of writing', async () => {
    open()
    await expect(writer.write([['put', { k: 'a', v: 1 }]])).rejects.toThrow(/missing parameter blob/)
    await expect(writer.write([['nope', {}]])).rejects.toThrow(/unknown write statement nope/)
    expect(count()).toBe(0)
  })

  it('flushNow and close commit what is queued, synchronously', async () => {
    open()
    const first = writer.write([['put', { k: 'a', v: 1, blob: null }]])
    writer.flushNow()
    expect(count()).toBe(1)
    await first
    void writer.write([['put', { k: 'b', v: 1, blob: null }]])
    writer.close()
    expect(count()).toBe(2)
  })
})

// The receiver's mode: a batch whose commit fails is kept, whole and in order, and retried; whoever
// waits on it is told; a stamp runs once, just before the commit, and what it sets is what lands.
describe.each(['inline', 'thread'] as const)('SqlWriter keeping failed batches (%s)', (mode) => {
  let kv: ReturnType<typeof kvFile>
  let db: Database
  let writer: SqlWriter
  const errors: Array<{ message: string; pending: number }> = []

  afterEach(() => {
    writer.close()
    kv.close()
    errors.length = 0
  })

  it('keeps a failed batch queued, rejects its waiters, and commits it in order once the store works', async () => {
    kv = kvFile('hookloop-sql-writer-keep-')
    db = kv.db
    // Retries only when asked (flushNow, a new write): the test decides when the store works again.
    const keep = { onError: (error: Error, pending: number) => errors.push({ message: error.message, pending }), retryMs: 3_600_000 }
    writer = mode === 'inline' ? createInlineWriter(db, SQL, { keep }) : createSqlWriterThread({ file: kv.file, statements: SQL, keep })
    db.exec(`CREATE TRIGGER fail BEFORE INSERT ON kv BEGIN SELECT RAISE(ABORT, 'simulated disk failure'); END;`)
    const row = { k: 'a', v: 0, blob: Buffer.from([0, 255]) }
    let stamps = 0
    const settled: Array<Error | null> = []
    writer.submit([['put', row]], (error) => settled.push(error), () => {
      stamps++
      row.v = 7
    })
    writer.submit([['bump', { k: 'a', by: 1 }]], (error) => settled.push(error))
    await expect(writer.committed()).rejects.toThrow(/simulated disk failure/)
    expect(errors[0]).toEqual({ message: expect.stringMatching(/simulated disk failure/), pending: 2 })
    expect(() => writer.flushNow()).toThrow(/simulated disk failure/)
    expect(writer.pending()).toBe(2)
    expect(settled).toEqual([])

    db.exec('DROP TRIGGER fail')
    writer.flushNow()
    expect(writer.pending()).toBe(0)
    expect(settled).toEqual([null, null])
    expect(stamps).toBe(1)
    const stored = db.prepare('SELECT v, blob FROM kv').get() as { v: number; blob: Buffer }
    expect(stored.v).toBe(8) // the stamped value, then the bump queued after it
    expect(stored.blob.equals(Buffer.from([0, 255]))).toBe(true)
    await expect(writer.committed()).resolves.toBeUndefined()
  })
})

// The thread commits one batch at a time: what queues meanwhile waits, and goes as the next batch,
// whole. The test's own connection holds the file's write lock, so the first batch stays on the
// thread (waiting on the lock) while three more writes queue in three turns of the event loop.
describe('SqlWriter on its thread, one batch in flight', () => {
  let kv: ReturnType<typeof kvFile>
  let writer: SqlWriter

  afterEach(() => {
    writer.close()
    kv.close()
  })

  it('queues what arrives while a batch is committed and commits it as one batch, in order, once that batch is done', async () => {
    kv = kvFile('hookloop-sql-writer-inflight-')
    writer = createSqlWriterThread({ file: kv.file, statements: SQL })
    const turn = () => new Promise((resolve) => setImmediate(resolve))
    const settled: Array<{ k: string; error: Error | null; pending: number }> = []
    const put = (k: string) => writer.submit([['put', { k, v: 1, blob: null }]], (error) => settled.push({ k, error, pending: writer.pending() }))
    kv.db.exec('BEGIN IMMEDIATE')
    put('a')
    await turn() // a is on the thread, waiting for the lock
    for (const k of ['b', 'c', 'd']) {
      put(k)
      await turn()
    }
    expect(writer.pending()).toBe(4)
    expect(settled).toEqual([])
    kv.db.exec('COMMIT')
    await writer.committed()
    // When a settles, b, c and d are all still queued; they settle together, nothing left behind them.
    expect(settled).toEqual([
      { k: 'a', error: null, pending: 3 },
      { k: 'b', error: null, pending: 0 },
      { k: 'c', error: null, pending: 0 },
      { k: 'd', error: null, pending: 0 },
    ])
    expect(kv.db.prepare('SELECT k FROM kv ORDER BY k').pluck().all()).toEqual(['a', 'b', 'c', 'd'])
  })
})

// A kept batch is one transaction: a write failing in its middle leaves none of the batch on disk,
// and the whole batch is retried in order.
describe.each(['inline', 'thread'] as const)('SqlWriter keeping a batch that fails in its middle (%s)', (mode) => {
  let kv: ReturnType<typeof kvFile>
  let writer: SqlWriter

  afterEach(() => {
    writer.close()
    kv.close()
  })

  it('stores none of its writes, keeps all of them, and stores all of them in order once the store works', async () => {
    kv = kvFile('hookloop-sql-writer-middle-')
    const keep = { onError: () => {}, retryMs: 3_600_000 }
    writer = mode === 'inline' ? createInlineWriter(kv.db, SQL, { keep }) : createSqlWriterThread({ file: kv.file, statements: SQL, keep })
    kv.db.exec(`CREATE TRIGGER fail BEFORE INSERT ON kv WHEN NEW.k = 'b' BEGIN SELECT RAISE(ABORT, 'simulated failure of one row'); END;`)
    const settled: string[] = []
    for (const k of ['a', 'b', 'c']) writer.submit([['put', { k, v: 1, blob: null }]], (error) => settled.push(error ? `${k} failed` : k))
    writer.submit([['bump', { k: 'c', by: 1 }]], (error) => settled.push(error ? 'bump failed' : 'bump c'))
    await expect(writer.committed()).rejects.toThrow(/simulated failure of one row/)
    expect(kv.db.prepare('SELECT count(*) FROM kv').pluck().get()).toBe(0)
    expect(writer.pending()).toBe(4)
    kv.db.exec('DROP TRIGGER fail')
    writer.flushNow()
    expect(settled).toEqual(['a', 'b', 'c', 'bump c'])
    expect(kv.db.prepare('SELECT k, v FROM kv ORDER BY k').all()).toEqual([
      { k: 'a', v: 1 },
      { k: 'b', v: 1 },
      { k: 'c', v: 2 },
    ])
  })
})

// Lanes (the receiver): large writes are committed apart from small ones and small ones go first,
// except where a key ties a small write to a large one queued before it. Taken bytes move to the
// writer thread without a copy, and come back when their batch fails, for its retry.
const TAKING = { ...SQL, put: { ...SQL.put, takes: ['blob'] } } as const

describe.each(['inline', 'thread'] as const)('SqlWriter lanes and taken bytes (%s)', (mode) => {
  let kv: ReturnType<typeof kvFile>
  let db: Database
  let writer: SqlWriter
  const errors: string[] = []

  function open(keepFailed = false): void {
    errors.length = 0
    kv = kvFile('hookloop-sql-writer-lanes-')
    db = kv.db
    const options = {
      lanes: { largeBytes: 1000, batchBytes: 1000 },
      ...(keepFailed ? { keep: { onError: (error: Error) => errors.push(error.message), retryMs: 3_600_000 } } : {}),
    }
    writer = mode === 'inline' ? createInlineWriter(db, TAKING, options) : createSqlWriterThread({ file: kv.file, statements: TAKING, ...options })
  }

  afterEach(() => {
    writer.close()
    kv.close()
  })

  it('commits small writes before large ones queued earlier, keeping the order of writes that share a key', async () => {
    open()
    const order: string[] = []
    const put = (k: string, bytes: number, keys: string[]) =>
      writer.submit([['put', { k, v: 1, blob: Buffer.alloc(bytes, k) }]], (error) => order.push(error ? `${k} failed` : k), undefined, { keys })
    put('A', 2000, ['a'])
    put('B', 2000, ['b'])
    put('c', 10, ['c'])
    // Depends on A (same key): must not overtake it, but may overtake B.
    writer.submit([['bump', { k: 'A', by: 41 }]], (error) => order.push(error ? 'bump failed' : 'bump A'), undefined, { keys: ['a'] })
    // No keys: keeps its place behind everything queued before it.
    writer.submit([['bump', { k: 'c', by: 1 }]], (error) => order.push(error ? 'bump failed' : 'bump c'), undefined)
    await writer.committed()
    expect(order).toEqual(['c', 'A', 'bump A', 'B', 'bump c'])
    expect(db.prepare('SELECT k, v, length(blob) AS n FROM kv ORDER BY k').all()).toEqual([
      { k: 'A', v: 42, n: 2000 },
      { k: 'B', v: 1, n: 2000 },
      { k: 'c', v: 2, n: 10 },
    ])
  })

  it('committed() waits for the large writes too', async () => {
    open()
    void writer.write([['put', { k: 'big', v: 1, blob: Buffer.alloc(5000, 1) }]])
    void writer.write([['put', { k: 'small', v: 1, blob: null }]])
    await writer.committed()
    expect(db.prepare('SELECT k FROM kv ORDER BY k').pluck().all()).toEqual(['big', 'small'])
  })

  it('takes a buffer that owns its memory, copies one that shares it, and stores both byte for byte', async () => {
    open()
    const own = Buffer.alloc(100_000, 7)
    const pool = Buffer.from('pooled bytes') // a slice of Node's shared pool
    const poolCopy = Buffer.from(pool)
    await Promise.all([writer.write([['put', { k: 'own', v: 1, blob: own }]]), writer.write([['put', { k: 'pool', v: 1, blob: pool }]])])
    const stored = (k: string) => db.prepare('SELECT blob FROM kv WHERE k = ?').pluck().get(k) as Buffer
    expect(stored('own').equals(Buffer.alloc(100_000, 7))).toBe(true)
    expect(stored('pool').equals(poolCopy)).toBe(true)
    // On the thread the owned buffer's memory moved there (the caller's view is empty); inline it stays.
    expect(own.byteLength).toBe(mode === 'thread' ? 0 : 100_000)
    expect(pool.equals(poolCopy)).toBe(true)
  })

  it('gives taken bytes back when a kept batch fails, and its retry stores them', async () => {
    open(true)
    db.exec(`CREATE TRIGGER fail BEFORE INSERT ON kv BEGIN SELECT RAISE(ABORT, 'simulated disk failure'); END;`)
    const row = { k: 'a', v: 1, blob: Buffer.alloc(50_000, 9) }
    let failed = 0
    writer.submit([['put', row]], () => {}, undefined, { keys: ['a'], failed: () => failed++ })
    await expect(writer.committed()).rejects.toThrow(/simulated disk failure/)
    expect(failed).toBe(1)
    expect(errors).toHaveLength(1)
    expect(row.blob.equals(Buffer.alloc(50_000, 9))).toBe(true)
    db.exec('DROP TRIGGER fail')
    writer.flushNow()
    expect((db.prepare('SELECT blob FROM kv').pluck().get() as Buffer).equals(Buffer.alloc(50_000, 9))).toBe(true)
  })
})
