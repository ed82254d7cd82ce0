// The breakpoints' list in the settings, on a real SQLite file and a real PostgreSQL: a breakpoint
// for every endpoint keeps the workspace it holds the requests of (schema 29) beside its
// definition; one saved before names none (`default`'s, the receiver reads); a workspace that is
// not a text is set aside with why, and kept by the next save.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBreakpointStore, createBreakpointStoreOn, migratePostgres, openDatabase, openPostgresEngine } from '../../../electron/engine/store'
import { parseBreakpoint } from '../../../shared/receiver'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const LIST = JSON.stringify([
  { id: 'before-29', enabled: true, endpointId: null, matchers: [], onExpiry: { action: 'release' } },
  { id: 'payments', enabled: true, endpointId: null, matchers: [], onExpiry: { action: 'release' }, workspaceId: 'ws_pay' },
  { id: 'odd', enabled: true, endpointId: null, matchers: [], onExpiry: { action: 'release' }, workspaceId: 7 },
])
const SAVE = "INSERT INTO settings (key, value_json) VALUES ('breakpoints', ?)"

describe('the breakpoints list', () => {
  const temp = useTempDir()
  const postgres = usePostgres()

  const expectRead = (stored: Awaited<ReturnType<ReturnType<typeof createBreakpointStoreOn>['load']>>) => {
    expect(stored.breakpoints.map((b) => [b.id, b.workspaceId])).toEqual([
      ['before-29', undefined],
      ['payments', 'ws_pay'],
    ])
    expect(stored.setAside).toEqual([{ entry: expect.objectContaining({ id: 'odd' }), reason: 'workspaceId: expected a workspace id' }])
  }

  it("keeps a breakpoint for every endpoint's workspace on a data folder", () => {
    const db = openDatabase({ file: join(temp.dir, 'hookloop.db'), notice: () => undefined })
    try {
      db.prepare(SAVE).run(LIST)
      const store = createBreakpointStore(db)
      expectRead(store.load())
      // Saved again with one more: the workspace and the entry set aside are kept.
      store.save([...store.load().breakpoints, { ...parseBreakpoint({ matchers: [] }, 'new'), workspaceId: 'ws_ops' }])
      expect(JSON.parse(db.prepare("SELECT value_json FROM settings WHERE key = 'breakpoints'").pluck().get() as string).map((b: { id: string; workspaceId?: unknown }) => [b.id, b.workspaceId])).toEqual([
        ['before-29', undefined],
        ['payments', 'ws_pay'],
        ['new', 'ws_ops'],
        ['odd', 7],
      ])
    } finally {
      db.close()
    }
  })

  it("does the same on a team's PostgreSQL", async () => {
    const engine = await openPostgresEngine({ url: await postgres.freshDatabase() })
    try {
      await migratePostgres(engine)
      await engine.run(SAVE, [LIST])
      const store = createBreakpointStoreOn(engine)
      expectRead(await store.load())
      await store.save([...(await store.load()).breakpoints, { ...parseBreakpoint({ matchers: [] }, 'new'), workspaceId: 'ws_ops' }])
      expect((await store.load()).breakpoints.map((b) => [b.id, b.workspaceId])).toEqual([
        ['before-29', undefined],
        ['payments', 'ws_pay'],
        ['new', 'ws_ops'],
      ])
    } finally {
      await engine.close()
    }
  })
})
