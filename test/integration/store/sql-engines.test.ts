// The one SQL the store speaks, run on both engines: a real SQLite file and a real PostgreSQL.
import { describe, expect, it } from 'vitest'
import type { SqlEngine, StoreKind } from '../../../electron/engine/store'
import { useBareEngines } from '../../support/use-bare-engines'

const bareEngine = useBareEngines()

async function engineOf(kind: StoreKind): Promise<SqlEngine> {
  const engine = await bareEngine(kind)
  await engine.exec('CREATE TABLE samples (id BIGINT PRIMARY KEY, at BIGINT NOT NULL, label TEXT, body BYTEA, ratio DOUBLE PRECISION)'.replace(/BYTEA/, kind === 'sqlite' ? 'BLOB' : 'BYTEA'))
  return engine
}

describe.each(['sqlite', 'postgres'] as const)('the SqlEngine on %s', (kind) => {
  it('writes and reads rows with the same values: ids and ms times as numbers, bodies as Buffers', async () => {
    const engine = await engineOf(kind)
    const body = Buffer.from([0, 1, 2, 255, 0x7b])
    const at = 1_790_000_000_123
    expect(await engine.run('INSERT INTO samples (id, at, label, body, ratio) VALUES (?, ?, ?, ?, ?)', [1, at, "it's ?", body, 0.25])).toEqual({ changes: 1 })
    await engine.run('INSERT INTO samples (id, at) VALUES (?, ?)', [2, at + 1])
    const row = await engine.get<{ id: number; at: number; label: string; body: Buffer; ratio: number }>('SELECT id, at, label, body, ratio FROM samples WHERE id = ?', [1])
    expect(row).toEqual({ id: 1, at, label: "it's ?", body, ratio: 0.25 })
    expect(Buffer.isBuffer(row?.body)).toBe(true)
    expect(await engine.all('SELECT id FROM samples WHERE at >= ? ORDER BY id', [at])).toEqual([{ id: 1 }, { id: 2 }])
    expect(await engine.get('SELECT id FROM samples WHERE id = ?', [99])).toBeUndefined()
    expect(await engine.run('UPDATE samples SET label = ? WHERE at > ?', ['x', 0])).toEqual({ changes: 2 })
  })

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const engine = await engineOf(kind)
    await engine.transaction(async (tx) => {
      await tx.run('INSERT INTO samples (id, at) VALUES (?, ?)', [1, 1])
      await tx.run('INSERT INTO samples (id, at) VALUES (?, ?)', [2, 2])
    })
    await expect(
      engine.transaction(async (tx) => {
        await tx.run('INSERT INTO samples (id, at) VALUES (?, ?)', [3, 3])
        await tx.run('INSERT INTO samples (id, at) VALUES (?, ?)', [1, 1])
      }),
    ).rejects.toThrow()
    expect(await engine.all('SELECT id FROM samples ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('sends a transaction at once: all of it committed, or none of it and the first refusal thrown', async () => {
    const engine = await engineOf(kind)
    const insert = 'INSERT INTO samples (id, at) VALUES (?, ?)'
    expect(
      await engine.transactionAtOnce([
        { sql: insert, params: [1, 1] },
        { sql: 'UPDATE samples SET label = ? WHERE id = ?', params: ['one', 1] },
        { sql: insert, params: [2, 2] },
      ]),
    ).toEqual([{ changes: 1 }, { changes: 1 }, { changes: 1 }])
    // The second statement is refused (id 1 is taken): the error is its own, not the refusals of
    // the statements after it in the aborted transaction, and the first is rolled back.
    await expect(
      engine.transactionAtOnce([
        { sql: insert, params: [3, 3] },
        { sql: insert, params: [1, 1] },
        { sql: insert, params: [4, 4] },
      ]),
    ).rejects.toThrow(/UNIQUE|duplicate key/)
    // Each time on a connection left outside any transaction.
    for (let id = 5; id < 9; id++) await engine.transactionAtOnce([{ sql: insert, params: [id, id] }])
    expect(await engine.all('SELECT id, label FROM samples ORDER BY id')).toEqual(
      [1, 2, 5, 6, 7, 8].map((id) => ({ id, label: id === 1 ? 'one' : null })),
    )
  })

  it('keeps a statement made beside an open transaction out of it', async () => {
    const engine = await engineOf(kind)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const transaction = engine.transaction(async (tx) => {
      await tx.run('INSERT INTO samples (id, at) VALUES (?, ?)', [1, 1])
      await held
      throw new Error('roll it back')
    })
    const beside = engine.run('INSERT INTO samples (id, at) VALUES (?, ?)', [2, 2])
    release()
    await expect(transaction).rejects.toThrow('roll it back')
    await beside
    expect(await engine.all('SELECT id FROM samples ORDER BY id')).toEqual([{ id: 2 }])
  })
})

describe('the SqlEngine on postgres: statements prepared once per connection', () => {
  it('runs the same text many times on every connection of the pool, in and out of transactions, each with its own values', async () => {
    const engine = await engineOf('postgres')
    const insert = 'INSERT INTO samples (id, at, label) VALUES (?, ?, ?)'
    // More at once than the pool has connections: each connection prepares the text once.
    await Promise.all(Array.from({ length: 40 }, (_, i) => engine.run(insert, [i, i * 10, `n${i}`])))
    await engine.transaction(async (tx) => {
      await tx.run(insert, [100, 1000, 'in'])
      await tx.run(insert, [101, 1010, 'in'])
    })
    await engine.transactionAtOnce([
      { sql: insert, params: [200, 2000, 'at once'] },
      { sql: insert, params: [201, 2010, 'at once'] },
    ])
    const byLabel = 'SELECT id FROM samples WHERE label = ? ORDER BY id'
    expect(await engine.all(byLabel, ['in'])).toEqual([{ id: 100 }, { id: 101 }])
    expect(await engine.all(byLabel, ['at once'])).toEqual([{ id: 200 }, { id: 201 }])
    expect(await engine.get('SELECT COUNT(*) AS n FROM samples WHERE id < ?', [40])).toEqual({ n: 40 })
  })

  it('reads a table whose columns changed since its statement was prepared (a migration): the new shape, no refusal', async () => {
    const engine = await engineOf('postgres')
    await engine.run('INSERT INTO samples (id, at) VALUES (?, ?)', [1, 1])
    const all = 'SELECT * FROM samples WHERE id = ?'
    expect(Object.keys((await engine.get<Record<string, unknown>>(all, [1])) ?? {})).not.toContain('added')
    await engine.exec('ALTER TABLE samples ADD COLUMN added TEXT')
    // Every connection of the pool that prepared it, not only the one asked next.
    const reads = await Promise.all(Array.from({ length: 12 }, () => engine.get<Record<string, unknown>>(all, [1])))
    for (const row of reads) expect(row).toMatchObject({ id: 1, added: null })
  })

  it('refuses a statement that fails, and runs the same text with good values afterwards', async () => {
    const engine = await engineOf('postgres')
    const insert = 'INSERT INTO samples (id, at) VALUES (?, ?)'
    await engine.run(insert, [1, 1])
    await expect(engine.run(insert, [1, 2])).rejects.toThrow(/duplicate key/)
    await expect(engine.transactionAtOnce([{ sql: insert, params: [2, 2] }, { sql: insert, params: [2, 3] }, { sql: insert, params: [3, 3] }])).rejects.toThrow(/duplicate key/)
    await engine.transactionAtOnce([{ sql: insert, params: [2, 2] }, { sql: insert, params: [3, 3] }])
    expect(await engine.all('SELECT id, at FROM samples ORDER BY id')).toEqual([{ id: 1, at: 1 }, { id: 2, at: 2 }, { id: 3, at: 3 }])
  })
})
