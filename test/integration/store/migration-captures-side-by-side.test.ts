// Schema 31 on a real PostgreSQL: commits that capture run side by side. Two transactions of other
// groups insert at once with neither waiting; two of the same group take turns and count it once;
// a delete racing an insert of the same group keeps it counted; the counters written at schema 30
// are kept (now a view over shards); and the live timeline's reads (change-reads.ts) never pass a
// request whose transaction commits after a later one's: it is held back until then, not skipped.
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, createChangeReads, migratePostgres, openPostgresEngine, type SqlEngine } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'

const ENDPOINT = `INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep', 'team', 'Team', 1)`
const row = (id: number, key: string | null) => `(${id}, 'ep', 1000, 'POST', '/h/team', '[]', 0, ${key === null ? 'NULL' : `'${key}'`})`
const insert = (...rows: string[]) => `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key) VALUES ${rows.join(', ')}`

async function counted(engine: SqlEngine): Promise<[number, number]> {
  const c = await engine.get<{ requests: number; received_rows: number }>("SELECT requests, received_rows FROM request_counts WHERE endpoint_key = 'ep'")
  return [Number(c?.requests ?? 0), Number(c?.received_rows ?? 0)]
}
async function direct(engine: SqlEngine): Promise<[number, number]> {
  const c = await engine.get<{ requests: number; received_rows: number }>(
    "SELECT COUNT(*) AS requests, COUNT(DISTINCT COALESCE(dedupe_key, 'request:' || CAST(id AS TEXT))) AS received_rows FROM requests WHERE endpoint_id = 'ep'",
  )
  return [Number(c?.requests), Number(c?.received_rows)]
}

/** Until some session of the database waits on an advisory lock. */
async function lockAwaited(engine: SqlEngine): Promise<void> {
  for (;;) {
    const waiting = await engine.get<{ n: number }>("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
    if (Number(waiting?.n) > 0) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A transaction on `engine` that runs `sql` and stays open until `commit()`. */
function heldOpen(engine: SqlEngine, sql: string) {
  let commit: () => void = () => {}
  const held = new Promise<void>((resolve) => (commit = resolve))
  let ran: () => void = () => {}
  const done = new Promise<void>((resolve) => (ran = resolve))
  const finished = engine.transaction(async (tx) => {
    await tx.exec(sql)
    ran()
    await held
  })
  return { ran: done, commit: () => (commit(), finished) }
}

describe('migration 31: captures on PostgreSQL commit side by side', () => {
  const postgres = usePostgres()

  async function store(migrateTo?: number) {
    const url = await postgres.freshDatabase()
    const engines = [await openPostgresEngine({ url }), await openPostgresEngine({ url }), await openPostgresEngine({ url })] as const
    await migratePostgres(engines[0], migrateTo === undefined ? MIGRATIONS : MIGRATIONS.filter((m) => m.version <= migrateTo))
    await engines[0].exec(ENDPOINT)
    return { engines, close: () => Promise.all(engines.map((e) => e.close())) }
  }

  it('keeps the counters written at schema 30 and reads them through the view', async () => {
    const { engines, close } = await store(30)
    const [a] = engines
    try {
      await a.exec(insert(row(1, 'k1'), row(2, 'k1'), row(3, null)))
      expect(await counted(a)).toEqual([3, 2])
      expect(await migratePostgres(a)).toMatchObject({ from: 30, steps: expect.arrayContaining([expect.stringMatching(/^31 /)]) })
      expect(await counted(a)).toEqual([3, 2])
      expect(await a.get("SELECT relkind FROM pg_class WHERE relname = 'request_counts'")).toEqual({ relkind: 'v' })
      await a.exec(insert(row(4, 'k2'), row(5, 'k1')))
      await a.exec('DELETE FROM requests WHERE id IN (1, 3)')
      expect(await counted(a)).toEqual(await direct(a))
      expect(await counted(a)).toEqual([3, 2])
    } finally {
      await close()
    }
  })

  it('lets two transactions of other groups insert at once, neither waiting for the other', async () => {
    const { engines, close } = await store()
    const [a, b, watch] = engines
    try {
      const first = heldOpen(a, insert(row(1, 'evt_1')))
      await first.ran
      // b commits while a is still open: no lock of a's stands in its way.
      await b.exec(insert(row(2, 'evt_2')))
      const waiting = await watch.get<{ n: number }>("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
      expect(Number(waiting?.n)).toBe(0)
      await first.commit()
      expect(await counted(watch)).toEqual([2, 2])
      expect(await counted(watch)).toEqual(await direct(watch))
    } finally {
      await close()
    }
  })

  it('counts a group two transactions insert at once once: the second waits for the first and sees its row', async () => {
    const { engines, close } = await store()
    const [a, b, watch] = engines
    try {
      const first = heldOpen(a, insert(row(1, 'evt_same')))
      await first.ran
      const second = b.exec(insert(row(2, 'evt_same')))
      await lockAwaited(watch)
      await first.commit()
      await second
      expect(await counted(watch)).toEqual([2, 1])
      expect(await counted(watch)).toEqual(await direct(watch))
    } finally {
      await close()
    }
  })

  it('keeps a group counted when one transaction deletes its last row while another adds to it', async () => {
    const { engines, close } = await store()
    const [a, b, watch] = engines
    try {
      await a.exec(insert(row(1, 'evt_kept')))
      const deleting = heldOpen(a, 'DELETE FROM requests WHERE id = 1')
      await deleting.ran
      const adding = b.exec(insert(row(2, 'evt_kept')))
      await lockAwaited(watch)
      await deleting.commit()
      await adding
      expect(await counted(watch)).toEqual([1, 1])
      expect(await counted(watch)).toEqual(await direct(watch))
    } finally {
      await close()
    }
  })

  it('takes the write lock whole for a statement of many groups, and the counts stay exact', async () => {
    const { engines, close } = await store()
    const [a, b, watch] = engines
    try {
      const many = Array.from({ length: 300 }, (_, i) => row(i + 1, `bulk_${i % 290}`))
      const bulk = heldOpen(a, insert(...many))
      await bulk.ran
      const whole = await watch.get<{ mode: string }>("SELECT mode FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1")
      expect(whole?.mode).toBe('ExclusiveLock')
      // A capture meanwhile waits for the bulk write's commit.
      const capture = b.exec(insert(row(1000, 'evt_after')))
      await lockAwaited(watch)
      await bulk.commit()
      await capture
      expect(await counted(watch)).toEqual([301, 291])
      expect(await counted(watch)).toEqual(await direct(watch))
    } finally {
      await close()
    }
  })

  it('holds a request back from the live reads until every earlier transaction has ended, then reads it in order', async () => {
    const { engines, close } = await store()
    const [a, b, watch] = engines
    try {
      const reads = createChangeReads(watch)
      const start = await reads.maxCommitOrder()
      // a numbers request 5 first and commits last; b numbers 9 and commits at once.
      const older = heldOpen(a, insert(row(5, 'evt_older')))
      await older.ran
      await b.exec(insert(row(9, 'evt_newer')))
      expect(await reads.requestsCommittedAfter(start)).toEqual([])
      expect(await reads.requestsHeldBack()).toBe(true)
      await older.commit()
      const rows = await reads.requestsCommittedAfter(start)
      expect(rows.map((r) => Number(r.id))).toEqual([5, 9])
      expect(await reads.requestsHeldBack()).toBe(false)
      expect(await reads.requestsCommittedAfter(Number(rows[1]?.commit_order))).toEqual([])
    } finally {
      await close()
    }
  })
})
