// Schema 22's API tokens on a real SQLite file and a real PostgreSQL: a token kept as the hash of
// its secret beside its prefix, listed newest first with the admin who made it, found by its
// hash, revoked once, and its last use written at most once a period, whichever process writes it.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAccountStore, createSqliteEngine, createTokenStore, openDatabase, openStore, parseStoreLocation, schemaVersion, type SqlEngine, type StoreKind } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const postgres = usePostgres()
const temp = useTempDir()

async function storeOf(kind: StoreKind): Promise<SqlEngine> {
  if (kind === 'sqlite') return createSqliteEngine(openDatabase({ file: join(temp.dir, 'hookloop.db'), notice: () => undefined }))
  return (await openStore(parseStoreLocation(await postgres.freshDatabase()), { notice: () => undefined, withoutSecrets: true })).engine
}

const HASH_A = 'a'.repeat(64)
const HASH_B = 'b'.repeat(64)

describe.each(['sqlite', 'postgres'] as const)('API tokens on %s', (kind) => {
  it('keep a hash and a prefix, list newest first with their maker, revoke once and record a use at most once a period', async () => {
    const engine = await storeOf(kind)
    try {
      await createAccountStore(engine).insert({ id: 'acc-1', email: 'ada@example.com', name: 'Ada', passwordHash: 'x', role: 'admin', createdAt: 1 })
      const tokens = createTokenStore(engine)
      await tokens.insert({ id: 'tok_ci', name: 'CI', role: 'editor', workspaceId: 'default', secretHash: HASH_A, prefix: 'hlk_AbC123', createdBy: 'acc-1', createdAt: 1_000 })
      await tokens.insert({ id: 'tok_bot', name: 'bot', role: 'viewer', workspaceId: 'default', secretHash: HASH_B, prefix: 'hlk_XyZ789', createdBy: null, createdAt: 2_000 })
      // One secret, one token.
      await expect(tokens.insert({ id: 'tok_dup', name: 'dup', role: 'viewer', workspaceId: 'default', secretHash: HASH_A, prefix: 'hlk_AbC123', createdBy: null, createdAt: 3_000 })).rejects.toThrow()

      expect((await tokens.list()).map((t) => [t.id, t.name, t.role, t.prefix, t.createdBy, t.createdByEmail, t.createdAt, t.lastUsedAt, t.revokedAt])).toEqual([
        ['tok_bot', 'bot', 'viewer', 'hlk_XyZ789', null, null, 2_000, null, null],
        ['tok_ci', 'CI', 'editor', 'hlk_AbC123', 'acc-1', 'ada@example.com', 1_000, null, null],
      ])
      expect((await tokens.byHash(HASH_A))?.id).toBe('tok_ci')
      expect(await tokens.byHash('c'.repeat(64))).toBeUndefined()
      expect((await tokens.byId('tok_bot'))?.secretHash).toBe(HASH_B)

      // A use is written, then not again within the period, then again after it.
      expect(await tokens.touch('tok_ci', 10_000, 60_000)).toBe(true)
      expect(await tokens.touch('tok_ci', 69_999, 60_000)).toBe(false)
      expect((await tokens.byId('tok_ci'))?.lastUsedAt).toBe(10_000)
      expect(await tokens.touch('tok_ci', 70_000, 60_000)).toBe(true)
      expect((await tokens.byId('tok_ci'))?.lastUsedAt).toBe(70_000)

      expect(await tokens.revoke('tok_ci', 80_000)).toBe(true)
      expect(await tokens.revoke('tok_ci', 90_000)).toBe(false)
      expect(await tokens.revoke('tok_nobody', 90_000)).toBe(false)
      // Revoked, the row stays: the list still says what it was and when it went.
      expect(await tokens.byHash(HASH_A)).toMatchObject({ id: 'tok_ci', revokedAt: 80_000 })

      // Nothing in the table is a secret: the hash column holds 64 hex digits and nothing else.
      const columns = await engine.all<Record<string, unknown>>('SELECT * FROM api_tokens')
      expect(Object.keys(columns[0] ?? {}).sort()).toEqual(['created_at', 'created_by', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'role', 'secret_hash', 'workspace_id'])
    } finally {
      await engine.close()
    }
  })
})

describe('migration 22: api_tokens', () => {
  it('adds the table to a store written at schema 21, its accounts kept', () => {
    const file = storeWrittenAt(temp.dir, 21, `INSERT INTO accounts (id, email, email_key, name, password_hash, role, created_at) VALUES ('acc-1', 'ada@example.com', 'ada@example.com', 'Ada', 'x', 'admin', 1);`)
    const db = openDatabase({ file, notice: () => undefined })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(22)
      expect(db.prepare('SELECT email FROM accounts').pluck().all()).toEqual(['ada@example.com'])
      expect(db.prepare('SELECT count(*) FROM api_tokens').pluck().get()).toBe(0)
    } finally {
      db.close()
    }
  })
})
