// API tokens on a real SQLite file and a real PostgreSQL: a secret shown once and kept as its hash,
// checked (wrong, unknown and revoked alike refused), a verdict believed for at most a second so a
// revocation by another process is seen within it, and the last use written at most once a minute.
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAccounts, createTokens, TOKEN_CACHE_MS, TokenError } from '../../../electron/engine/accounts'
import { createSqliteEngine, openDatabase, openStore, parseStoreLocation, type SqlEngine, type StoreKind } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()

async function storeOf(kind: StoreKind): Promise<{ engine: SqlEngine; another: () => Promise<SqlEngine> }> {
  if (kind === 'sqlite') {
    const file = join(temp.dir, 'hookloop.db')
    const open = () => createSqliteEngine(openDatabase({ file, notice: () => undefined }))
    return { engine: open(), another: async () => open() }
  }
  const url = await postgres.freshDatabase()
  const open = async () => (await openStore(parseStoreLocation(url), { notice: () => undefined, withoutSecrets: true })).engine
  return { engine: await open(), another: open }
}

describe.each(['sqlite', 'postgres'] as const)('API tokens on %s', (kind) => {
  it('show a secret once, keep its hash, and admit it until it is revoked', async () => {
    const { engine } = await storeOf(kind)
    try {
      const admin = await createAccounts({ engine: () => engine }).createFirstAdmin({ email: 'ada@example.com', password: 'correct horse battery' })
      const tokens = createTokens({ engine: () => engine })
      await expect(tokens.create({ name: '  ', role: 'viewer', workspaceId: 'default', by: null })).rejects.toThrow(TokenError)
      const { token, secret } = await tokens.create({ name: ' CI ', role: 'editor', workspaceId: 'default', by: admin.id })
      expect(secret).toMatch(/^hlk_[A-Za-z0-9_-]{43}$/)
      expect(token).toMatchObject({ name: 'CI', role: 'editor', prefix: secret.slice(0, 10), createdBy: admin.id, createdByEmail: 'ada@example.com', lastUsedAt: null, revokedAt: null })
      expect(token.id).toMatch(/^tok_[0-9a-f]{16}$/)
      const stored = await engine.get<Record<string, unknown>>('SELECT * FROM api_tokens')
      expect(stored?.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'))
      expect(JSON.stringify(stored)).not.toContain(secret.slice(10))

      expect(await tokens.verify(secret)).toMatchObject({ id: token.id, role: 'editor' })
      // Wrong, unknown and malformed: refused alike.
      expect(await tokens.verify(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`)).toBeNull()
      expect(await tokens.verify(`hlk_${'x'.repeat(43)}`)).toBeNull()
      expect(await tokens.verify('hlk_short')).toBeNull()
      expect(await tokens.verify(undefined)).toBeNull()

      const revoked = await tokens.revoke(token.id)
      expect(revoked.revokedAt).not.toBeNull()
      // Revoked here: refused here at once, cached or not.
      expect(await tokens.verify(secret)).toBeNull()
      expect((await tokens.revoke(token.id)).revokedAt).toBe(revoked.revokedAt)
      await expect(tokens.revoke('tok_0000000000000000')).rejects.toThrow(/no token/)
      expect((await tokens.list()).map((t) => [t.name, t.revokedAt !== null])).toEqual([['CI', true]])
    } finally {
      await engine.close()
    }
  })

  it('see a revocation by another process within a second, and write the last use at most once a minute', async () => {
    const { engine, another } = await storeOf(kind)
    const elsewhere = await another()
    try {
      let clock = 1_000_000
      const here = createTokens({ engine: () => engine, now: () => clock })
      const there = createTokens({ engine: () => elsewhere, now: () => clock })
      const { token, secret } = await here.create({ name: 'CI', role: 'viewer', workspaceId: 'default', by: null })
      const lastUse = async () => (await here.list())[0]?.lastUsedAt
      // A server looking again at a quiet socket's token is no use of it.
      expect(await here.verify(secret, { use: false })).not.toBeNull()
      await new Promise((r) => setTimeout(r, 50))
      expect(await lastUse()).toBeNull()
      expect(await here.verify(secret)).not.toBeNull()
      await until(async () => (await lastUse()) === clock)

      await there.revoke(token.id)
      // This process believes its verdict for less than TOKEN_CACHE_MS, then reads the store again.
      clock += TOKEN_CACHE_MS - 1
      expect(await here.verify(secret)).not.toBeNull()
      clock += 1
      expect(await here.verify(secret)).toBeNull()

      const { secret: second } = await here.create({ name: 'nightly', role: 'editor', workspaceId: 'default', by: null })
      const used = async () => (await here.list()).find((t) => t.name === 'nightly')?.lastUsedAt
      const first = clock
      await here.verify(second)
      await until(async () => (await used()) === first)
      clock += 30_000
      await there.verify(second)
      await here.verify(second)
      await new Promise((r) => setTimeout(r, 50))
      expect(await used()).toBe(first)
      clock += 30_000
      await there.verify(second)
      await until(async () => (await used()) === clock)
    } finally {
      await elsewhere.close()
      await engine.close()
    }
  })
})

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error('not within 2 s')
}
