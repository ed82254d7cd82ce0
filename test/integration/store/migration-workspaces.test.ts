// Schema 27 on stores written at schema 26 with accounts, tokens, sessions, an invite, the audit,
// endpoints and a subscription, on a real SQLite file and a real PostgreSQL: everything lands in
// the `default` workspace and each account keeps its role as its membership there.
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, createSqliteEngine, createWorkspaceStore, migratePostgres, openDatabase, openPostgresEngine, type SqlEngine } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const ROWS = [
  `INSERT INTO accounts (id, email, email_key, name, password_hash, role, created_at, disabled) VALUES ('acc-ada', 'Ada@example.com', 'ada@example.com', 'Ada', 'x', 'admin', 10, 0)`,
  `INSERT INTO accounts (id, email, email_key, name, password_hash, role, created_at, disabled) VALUES ('acc-bob', 'bob@example.com', 'bob@example.com', 'Bob', 'x', 'viewer', 20, 1)`,
  `INSERT INTO account_sessions (token_hash, account_id, created_at, expires_at, last_seen_at) VALUES ('s1', 'acc-ada', 1, 99, 1)`,
  `INSERT INTO account_links (token_hash, kind, role, created_by, created_at, expires_at) VALUES ('l1', 'invite', 'editor', 'acc-ada', 1, 99)`,
  `INSERT INTO api_tokens (id, name, role, secret_hash, prefix, created_by, created_at) VALUES ('tok_ci', 'CI', 'editor', 'h1', 'hlk_AbC123', 'acc-ada', 1)`,
  `INSERT INTO audit (id, at, actor_id, actor, via, command, summary) VALUES ('a1', 1, 'acc-ada', 'Ada@example.com', 'session', 'endpoint.create', 'made')`,
  `INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep', 'team', 'Team', 1)`,
  `INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('sub', 'Out', 'http://127.0.0.1:1/', 'none', '{}', 1, 1)`,
]

async function expectEverythingInDefault(engine: SqlEngine): Promise<void> {
  for (const table of ['endpoints', 'subscriptions', 'api_tokens', 'audit', 'account_links', 'account_sessions']) {
    expect(await engine.all(`SELECT DISTINCT workspace_id FROM ${table}`), table).toEqual([{ workspace_id: 'default' }])
  }
  const workspaces = createWorkspaceStore(engine)
  expect((await workspaces.list()).map((w) => [w.id, w.name])).toEqual([['default', 'default']])
  expect((await workspaces.members('default')).map((m) => [m.accountId, m.role, m.disabled])).toEqual([
    ['acc-ada', 'admin', false],
    ['acc-bob', 'viewer', true],
  ])
  expect(await workspaces.membershipsOf('acc-ada')).toEqual([{ workspaceId: 'default', workspaceName: 'default', role: 'admin' }])
  // A new row made without naming a workspace is `default`'s, as everything without accounts is.
  await engine.run(`INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep2', 'other', 'Other', 2)`)
  expect(await engine.get(`SELECT workspace_id FROM endpoints WHERE id = 'ep2'`)).toEqual({ workspace_id: 'default' })
}

describe('migration 27: workspaces', () => {
  const temp = useTempDir()
  const postgres = usePostgres()

  it('puts a SQLite store\'s rows in default and keeps each account\'s role as its membership', async () => {
    const file = storeWrittenAt(temp.dir, 26, ROWS.map((s) => `${s};`).join('\n'))
    const engine = createSqliteEngine(openDatabase({ file, notice: () => undefined }))
    try {
      await expectEverythingInDefault(engine)
    } finally {
      await engine.close()
    }
  })

  it('does the same on PostgreSQL', async () => {
    const engine = await openPostgresEngine({ url: await postgres.freshDatabase() })
    try {
      await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 26))
      for (const row of ROWS) await engine.exec(row)
      expect((await migratePostgres(engine)).to).toBeGreaterThanOrEqual(27)
      await expectEverythingInDefault(engine)
    } finally {
      await engine.close()
    }
  })
})
