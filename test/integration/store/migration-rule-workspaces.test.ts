// Schema 29 on stores written at schema 28, on a real SQLite file and a real PostgreSQL: every rule
// is kept; a rule for every endpoint is `default`'s, an endpoint's rule its endpoint's workspace's
// (an endpoint made in another workspace before the step keeps its rules there), and the owner
// read of a rule answers by it.
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, createRuleStore, createSqliteEngine, createWorkspaceStore, migratePostgres, openDatabase, openPostgresEngine, type SqlEngine } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const rule = (id: string, endpoint: string | null, position: number, status: number) =>
  `INSERT INTO rules (id, endpoint_id, position, enabled, definition_json, created_at) VALUES ('${id}', ${endpoint === null ? 'NULL' : `'${endpoint}'`}, ${position}, 1, '{"steps":[{"type":"reply","status":${status}}]}', 1)`
const ROWS = [
  `INSERT INTO workspaces (id, name, created_at) VALUES ('ws_pay', 'Payments', 1)`,
  `INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep-shop', 'shop', 'Shop', 1)`,
  `INSERT INTO endpoints (id, slug, name, created_at, workspace_id) VALUES ('ep-pay', 'pay', 'Pay', 1, 'ws_pay')`,
  rule('every-1', null, 0, 500),
  rule('every-2', null, 1, 503),
  rule('shop-1', 'ep-shop', 0, 418),
  rule('pay-1', 'ep-pay', 0, 410),
]

async function expectRulesInTheirWorkspaces(engine: SqlEngine): Promise<void> {
  expect(await engine.all('SELECT id, workspace_id FROM rules ORDER BY id')).toEqual([
    { id: 'every-1', workspace_id: 'default' },
    { id: 'every-2', workspace_id: 'default' },
    { id: 'pay-1', workspace_id: 'ws_pay' },
    { id: 'shop-1', workspace_id: 'default' },
  ])
  // Every rule is kept as it was, each in its order.
  const rules = createRuleStore(engine)
  const kept = (await rules.list()).map((r) => [r.id, r.endpointId, r.position, r.rule.steps?.[0]])
  expect(kept.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
    ['every-1', null, 0, { type: 'reply', status: 500 }],
    ['every-2', null, 1, { type: 'reply', status: 503 }],
    ['pay-1', 'ep-pay', 0, { type: 'reply', status: 410 }],
    ['shop-1', 'ep-shop', 0, { type: 'reply', status: 418 }],
  ])
  const owners = createWorkspaceStore(engine)
  expect(await Promise.all(['every-1', 'shop-1', 'pay-1'].map((id) => owners.ownerOf('rule', id)))).toEqual(['default', 'default', 'ws_pay'])
  // A rule for every endpoint made after the step, in a workspace, is that workspace's; without one, default's.
  await rules.insert({ id: 'every-pay', endpointId: null, position: 0, enabled: true, rule: { enabled: true, matchers: [], steps: [{ type: 'reply', status: 502 }] }, createdAt: 2, workspaceId: 'ws_pay' })
  await engine.run(`INSERT INTO rules (id, endpoint_id, position, enabled, definition_json, created_at) VALUES ('every-3', NULL, 2, 1, '{}', 2)`)
  expect(await Promise.all(['every-pay', 'every-3'].map((id) => owners.ownerOf('rule', id)))).toEqual(['ws_pay', 'default'])
  expect((await owners.definitionOwners()).everyEndpointRules).toEqual(new Map([['every-1', 'default'], ['every-2', 'default'], ['every-3', 'default'], ['every-pay', 'ws_pay']]))
}

describe('migration 29: a rule for every endpoint belongs to a workspace', () => {
  const temp = useTempDir()
  const postgres = usePostgres()

  it('keeps every rule of a SQLite store, each in its workspace', async () => {
    const file = storeWrittenAt(temp.dir, 28, ROWS.map((s) => `${s};`).join('\n'))
    const engine = createSqliteEngine(openDatabase({ file, notice: () => undefined }))
    try {
      await expectRulesInTheirWorkspaces(engine)
    } finally {
      await engine.close()
    }
  })

  it('does the same on PostgreSQL', async () => {
    const engine = await openPostgresEngine({ url: await postgres.freshDatabase() })
    try {
      await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 28))
      for (const row of ROWS) await engine.exec(row)
      // Step 29 alone (a later schema's steps are its own tests'), then on to the latest.
      expect(await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 29))).toMatchObject({ from: 28, to: 29, steps: [expect.stringMatching(/^29 /)] })
      await migratePostgres(engine)
      await expectRulesInTheirWorkspaces(engine)
    } finally {
      await engine.close()
    }
  })
})
