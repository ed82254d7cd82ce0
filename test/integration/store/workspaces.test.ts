// Workspaces and memberships (schema 27) on a real SQLite file and a real PostgreSQL: a name is
// taken once; an account is a member of the workspace it joins with its role there; a membership
// is added, changed and removed; a session points at one workspace and reads its role there; an
// invite, a token and an audit entry each keep their workspace, and the audit lists one's only.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createAccountStore,
  createAuditStore,
  createSqliteEngine,
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

      // An account's memberships go with it.
      await engine.run(`DELETE FROM accounts WHERE id = 'acc-bob'`)
      expect(await workspaces.members('ws_b')).toEqual([])
    } finally {
      await engine.close()
    }
  })
})
