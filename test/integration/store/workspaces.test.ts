// Workspaces and memberships (schema 27) on a real SQLite file and a real PostgreSQL: a name is
// taken once; an account is a member of the workspace it joins with its role there; a membership
// is added, changed and removed; a session points at one workspace and reads its role there; an
// invite, a token and an audit entry each keep their workspace, and the audit lists one's only; a
// workspace made with its admin is made whole or not at all; a workspace's timeline total, read
// from the request counters, is the number of its received rows.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createAccountStore,
  createAuditStore,
  createSqliteEngine,
  createTimelineReads,
  createTokenStore,
  createWorkspaceStore,
  openDatabase,
  openStore,
  parseStoreLocation,
  type SqlEngine,
  type StoreKind,
} from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()

async function storeOf(kind: StoreKind): Promise<SqlEngine> {
  if (kind === 'sqlite') return createSqliteEngine(openDatabase({ file: join(temp.dir, 'hookloop.db'), notice: () => undefined }))
  return (await openStore(parseStoreLocation(await postgres.freshDatabase()), { notice: () => undefined, withoutSecrets: true })).engine
}

describe.each(['sqlite', 'postgres'] as const)('workspaces on %s', (kind) => {
  it('hold members with a role each, and what sessions, invites, tokens and the audit belong to', async () => {
    const engine = await storeOf(kind)
    try {
      const workspaces = createWorkspaceStore(engine)
      const accounts = createAccountStore(engine)
      expect(await workspaces.insert({ id: 'ws_b', name: 'Payments', createdAt: 5 })).toBe(true)
      // A name (or an id) is taken once.
      expect(await workspaces.insert({ id: 'ws_c', name: 'Payments', createdAt: 6 })).toBe(false)
      expect(await workspaces.insert({ id: 'ws_b', name: 'Other', createdAt: 6 })).toBe(false)
      expect((await workspaces.byName('Payments'))?.id).toBe('ws_b')
      expect(await workspaces.byName('payments')).toBeUndefined()
      expect((await workspaces.list()).map((w) => w.name)).toEqual(['Payments', 'default'])

      // The first admin joins default; a member invited to B joins B only.
      expect(await accounts.insert({ id: 'acc-ada', email: 'ada@example.com', name: 'Ada', passwordHash: 'x', role: 'admin', createdAt: 10 }, true)).toBe(true)
      expect(await accounts.insert({ id: 'acc-x', email: 'x@example.com', name: 'X', passwordHash: 'x', role: 'admin', createdAt: 11 }, true)).toBe(false)
      await accounts.insert({ id: 'acc-bob', email: 'bob@example.com', name: 'Bob', passwordHash: 'x', role: 'editor', createdAt: 20, workspaceId: 'ws_b' })
      expect(await workspaces.membershipsOf('acc-ada')).toEqual([{ workspaceId: 'default', workspaceName: 'default', role: 'admin' }])
      expect(await workspaces.membershipsOf('acc-bob')).toEqual([{ workspaceId: 'ws_b', workspaceName: 'Payments', role: 'editor' }])
      expect(await workspaces.roleIn('acc-bob', 'default')).toBeUndefined()

      // Added to B, then its role there changed; then removed again.
      await workspaces.setMembership('acc-ada', 'ws_b', 'viewer', 30)
      await workspaces.setMembership('acc-ada', 'ws_b', 'admin', 31)
      expect((await workspaces.members('ws_b')).map((m) => [m.email, m.role])).toEqual([
        ['ada@example.com', 'admin'],
        ['bob@example.com', 'editor'],
      ])
      expect((await workspaces.membershipsOf('acc-ada')).map((m) => [m.workspaceName, m.role])).toEqual([
        ['Payments', 'admin'],
        ['default', 'admin'],
      ])

      // A session reads its role in the workspace it looks at; none once the membership is gone.
      await accounts.insertSession({ tokenHash: 's1', accountId: 'acc-ada', workspaceId: 'default', createdAt: 1, expiresAt: 1_000, lastSeenAt: 1 })
      expect((await accounts.sessionAccount('s1', 2))?.role).toBe('admin')
      expect(await accounts.setSessionWorkspace('s1', 'ws_b')).toBe(true)
      expect(await accounts.sessionAccount('s1', 2)).toMatchObject({ role: 'admin', session: { workspaceId: 'ws_b' } })
      expect(await workspaces.removeMembership('acc-ada', 'ws_b')).toBe(true)
      expect(await workspaces.removeMembership('acc-ada', 'ws_b')).toBe(false)
      expect((await accounts.sessionAccount('s1', 2))?.role).toBeNull()

      // An invite is to a workspace.
      await accounts.insertLink({ tokenHash: 'l1', kind: 'invite', role: 'viewer', workspaceId: 'ws_b', createdBy: 'acc-ada', createdAt: 1, expiresAt: 1_000 })
      expect(await accounts.takeLink('l1', 2)).toMatchObject({ role: 'viewer', workspaceId: 'ws_b' })

      // A token acts in one workspace; the list of one holds only its tokens.
      const tokens = createTokenStore(engine)
      await tokens.insert({ id: 'tok_a', name: 'A', role: 'editor', workspaceId: 'default', secretHash: 'a'.repeat(64), prefix: 'hlk_a', createdBy: null, createdAt: 1 })
      await tokens.insert({ id: 'tok_b', name: 'B', role: 'viewer', workspaceId: 'ws_b', secretHash: 'b'.repeat(64), prefix: 'hlk_b', createdBy: null, createdAt: 2 })
      expect((await tokens.byHash('b'.repeat(64)))?.workspaceId).toBe('ws_b')
      expect((await tokens.list('default')).map((t) => t.id)).toEqual(['tok_a'])
      expect((await tokens.list()).map((t) => t.id)).toEqual(['tok_b', 'tok_a'])

      // The audit of one workspace lists its own entries; without one, every entry.
      const audit = createAuditStore(engine)
      const who = { actorId: 'acc-ada', actor: 'ada@example.com', via: 'session' as const, target: null, detail: {} }
      await audit.record({ at: 1, ...who, command: 'endpoint.create', summary: 'in default' })
      await audit.record({ at: 2, ...who, workspaceId: 'ws_b', command: 'endpoint.create', summary: 'in B' })
      expect((await audit.list({ workspaceId: 'ws_b' }, 0, 10)).entries.map((e) => e.summary)).toEqual(['in B'])
      expect((await audit.list({ workspaceId: 'default' }, 0, 10)).entries.map((e) => e.summary)).toEqual(['in default'])
      expect((await audit.list({}, 0, 10)).total).toBe(2)

      // A workspace made with its first admin: both, or (its name taken) neither.
      expect(await workspaces.createWithAdmin({ id: 'ws_d', name: 'Design', createdAt: 40 }, 'acc-ada')).toBe(true)
      expect(await workspaces.roleIn('acc-ada', 'ws_d')).toBe('admin')
      expect(await workspaces.createWithAdmin({ id: 'ws_e', name: 'Design', createdAt: 41 }, 'acc-ada')).toBe(false)
      expect(await workspaces.roleIn('acc-ada', 'ws_e')).toBeUndefined()

      // An account's memberships go with it.
      await engine.run(`DELETE FROM accounts WHERE id = 'acc-bob'`)
      expect(await workspaces.members('ws_b')).toEqual([])
    } finally {
      await engine.close()
    }
  })

  it("count a workspace's received rows from the counters, as its rows are", async () => {
    const engine = await storeOf(kind)
    try {
      await createWorkspaceStore(engine).insert({ id: 'ws_b', name: 'Payments', createdAt: 5 })
      const endpoint = `INSERT INTO endpoints (id, slug, name, scheme, secrets_json, dedupe_json, dedupe_window_ms, body_limit, config_json, created_at, workspace_id) VALUES (?, ?, ?, NULL, '[]', NULL, 86400000, 1048576, '{}', 1000, ?)`
      for (const [id, workspace] of [['ep_a', 'default'], ['ep_b', 'ws_b'], ['ep_gone', 'ws_b']]) await engine.run(endpoint, [id, id, id, workspace])
      // Keyed arrivals (two of one key: one row), keyless ones, one at no endpoint (default's), one at an endpoint deleted since.
      const rows: [string | null, string | null][] = [['ep_a', 'evt_1'], ['ep_a', 'evt_1'], ['ep_a', null], ['ep_b', 'evt_1'], ['ep_b', 'evt_2'], ['ep_b', null], [null, null], ['ep_gone', 'evt_9']]
      for (const [i, [endpointId, key]] of rows.entries()) {
        await engine.run(`INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key) VALUES (?, ?, ?, 'POST', '/h/x', '[]', 0, ?)`, [i + 1, endpointId, 1000 + i, key])
      }
      await engine.run(`DELETE FROM endpoints WHERE id = 'ep_gone'`)
      const timeline = createTimelineReads(engine)
      const total = async (filter: Parameters<typeof timeline.refs>[0]) => (await timeline.refs({ ...filter, status: ['received'] }, 100)).total
      const rowsOf = async (filter: Parameters<typeof timeline.refs>[0]) => (await timeline.refs({ ...filter, status: ['received'] }, 100)).refs.length
      for (const [workspace, expected] of [['default', 3], ['ws_b', 3], ['ws_none', 0]] as const) {
        expect(await total({ workspace }), workspace).toBe(expected)
        expect(await rowsOf({ workspace }), workspace).toBe(expected)
      }
      // An endpoint named in the filter: its rows, and none of another workspace's.
      expect([await total({ workspace: 'ws_b', endpointId: 'ep_b' }), await total({ workspace: 'default', endpointId: 'ep_b' })]).toEqual([3, 0])
    } finally {
      await engine.close()
    }
  })
})
