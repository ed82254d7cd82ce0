// The audit on a real SQLite file and a real PostgreSQL: entries newest first, filtered by actor
// (any case), command and time, paged; no secret reaches the table; old entries pruned, recent kept.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAuditStore, createSqliteEngine, openDatabase, openStore, parseStoreLocation, type SqlEngine, type StoreKind } from '../../../electron/engine/store'
import { REDACTED } from '../../../shared/contract'
import { createRealClock } from '../../../electron/engine/clock'
import { createRetention } from '../../../electron/engine/retention'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
const DAY = 86_400_000

async function storeOf(kind: StoreKind): Promise<SqlEngine> {
  if (kind === 'sqlite') return createSqliteEngine(openDatabase({ file: join(temp.dir, 'hookloop.db'), notice: () => undefined }))
  return (await openStore(parseStoreLocation(await postgres.freshDatabase()), { notice: () => undefined, withoutSecrets: true })).engine
}

describe.each(['sqlite', 'postgres'] as const)('the audit on %s', (kind) => {
  it('lists changes newest first, filtered and paged, and keeps no secret', async () => {
    const engine = await storeOf(kind)
    try {
      const audit = createAuditStore(engine)
      const ada = { actorId: 'acc-ada', actor: 'Ada@Example.com', via: 'session' as const }
      await audit.record({ at: 1_000, ...ada, command: 'rule.update', target: { kind: 'rule', id: 'r1' }, summary: 'rule r1 changed (revision 3)', detail: { id: 'r1', revision: 3, definition: { preset: 'delay', ms: 200 } } })
      await audit.record({
        at: 2_000,
        actorId: null,
        actor: 'local',
        via: 'app',
        command: 'endpoint.create',
        target: null,
        summary: 'endpoint Stripe created',
        detail: { name: 'Stripe', secrets: ['whsec_topsecretvalue'], headers: [['Authorization', 'Bearer abc.def'], ['content-type', 'application/json']], forward: { headers: [{ name: 'X-Api-Key', value: 'key-123456' }] }, password: 'correct horse battery', link: 'https://h/join?link=abcdef', forwardTo: ['https://app.example.com/hooks?token=tok-98765&x=1', 'https://bob:pw-4321@app.example.com/in'], text: `{"log":${'x'.repeat(5000)}}` },
      })
      await audit.record({ at: 3_000, ...ada, command: 'subscription.rotateSecret', target: { kind: 'subscription', id: 's1' }, summary: 'signing secret rotated', detail: { id: 's1', secret: 'whsec_newsecret' } })

      const all = await audit.list({}, 0, 10)
      expect(all.total).toBe(3)
      expect(all.entries.map((e) => e.command)).toEqual(['subscription.rotateSecret', 'endpoint.create', 'rule.update'])
      expect(all.entries[2]).toMatchObject({ at: 1_000, actorId: 'acc-ada', actor: 'Ada@Example.com', via: 'session', target: { kind: 'rule', id: 'r1' }, detail: { id: 'r1', revision: 3, definition: { preset: 'delay', ms: 200 } } })
      expect(all.entries[1]?.detail).toEqual({
        name: 'Stripe',
        secrets: REDACTED,
        headers: [['Authorization', REDACTED], ['content-type', 'application/json']],
        forward: { headers: [{ name: 'X-Api-Key', value: REDACTED }] },
        password: REDACTED,
        link: REDACTED,
        forwardTo: [`https://app.example.com/hooks?token=${REDACTED}&x=1`, `https://bob:${REDACTED}@app.example.com/in`],
        text: '[5008 characters, not kept]',
      })
      const rows = await engine.all<{ detail_json: string }>('SELECT detail_json FROM audit')
      const stored = rows.map((r) => r.detail_json).join('\n')
      for (const secret of ['whsec_topsecretvalue', 'abc.def', 'key-123456', 'correct horse', 'abcdef', 'whsec_newsecret', 'tok-98765', 'pw-4321']) expect(stored).not.toContain(secret)

      expect((await audit.list({ actor: 'ada@example.COM' }, 0, 10)).entries.map((e) => e.at)).toEqual([3_000, 1_000])
      expect((await audit.list({ actor: 'local' }, 0, 10)).entries.map((e) => e.command)).toEqual(['endpoint.create'])
      expect((await audit.list({ command: 'rule.update' }, 0, 10)).total).toBe(1)
      expect((await audit.list({ since: 2_000 }, 0, 10)).entries.map((e) => e.at)).toEqual([3_000, 2_000])
      const page = await audit.list({}, 1, 1)
      expect(page).toMatchObject({ total: 3, entries: [{ at: 2_000 }] })
    } finally {
      await engine.close()
    }
  })

  it('prunes the entries older than a time, and keeps the recent ones', async () => {
    const engine = await storeOf(kind)
    try {
      const audit = createAuditStore(engine)
      for (const at of [100, 200, 300, 400]) await audit.record({ at, actorId: null, actor: 'local', via: 'cli', command: 'rule.delete', target: { kind: 'rule', id: `r${at}` }, summary: 'rule deleted', detail: {} })
      expect(await audit.pruneBefore(300, 1)).toBe(1)
      expect(await audit.pruneBefore(300, 10)).toBe(1)
      expect((await audit.list({}, 0, 10)).entries.map((e) => e.at)).toEqual([400, 300])
    } finally {
      await engine.close()
    }
  })

  it("goes by the history's day limit in a retention pass; Clear history leaves it", async () => {
    const engine = await storeOf(kind)
    const clock = createRealClock()
    const retention = createRetention({ engine, clock, timers: clock, firstPassMs: 2 ** 31 - 1, batch: { rows: 2 } })
    try {
      const audit = createAuditStore(engine)
      const now = Date.now()
      // Five old entries: more than one batch of two.
      for (const daysAgo of [40, 35, 33, 32, 31, 2, 0]) {
        await audit.record({ at: now - daysAgo * DAY, actorId: null, actor: 'local', via: 'app', command: 'rule.delete', target: { kind: 'rule', id: `r${daysAgo}` }, summary: 'rule deleted', detail: {} })
      }
      await retention.prune({ all: true })
      expect((await audit.list({}, 0, 100)).total).toBe(7)
      await retention.prune({ olderThanMs: 30 * DAY })
      expect((await audit.list({}, 0, 100)).entries.map((e) => e.target?.id)).toEqual(['r0', 'r2'])
    } finally {
      await retention.stop()
      await engine.close()
    }
  })
})
