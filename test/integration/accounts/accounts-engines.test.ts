// Accounts on a real SQLite file and a real PostgreSQL: the first admin once, sign-in by any case
// of the address, a wrong password, sessions kept only as hashes and ended on the server, a
// one-time link used once, and a disabled account signed out everywhere.
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AccountError, createAccounts, SESSION_IDLE_MS, type Accounts } from '../../../electron/engine/accounts'
import { createSqliteEngine, openDatabase, openStore, parseStoreLocation, type SqlEngine, type StoreKind } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
const PASSWORD = 'correct horse battery'

async function storeOf(kind: StoreKind): Promise<SqlEngine> {
  if (kind === 'sqlite') return createSqliteEngine(openDatabase({ file: join(temp.dir, 'hookloop.db'), notice: () => undefined }))
  return (await openStore(parseStoreLocation(await postgres.freshDatabase()), { notice: () => undefined, withoutSecrets: true })).engine
}

/** A sign-in that opened a session (the test fails if it was refused). */
function signedIn(signed: Awaited<ReturnType<Accounts['signIn']>>): Exclude<typeof signed, { refused: unknown }> {
  if ('refused' in signed) throw new Error(`the sign-in was refused: ${signed.refused}`)
  return signed
}

describe.each(['sqlite', 'postgres'] as const)('accounts on %s', (kind) => {
  it('make the first admin once, sign in by any case of the address, and keep only hashes', async () => {
    const engine = await storeOf(kind)
    try {
      let clock = 1_000_000
      const accounts = createAccounts({ engine: () => engine, now: () => clock })
      expect(await accounts.count()).toBe(0)
      await expect(accounts.createFirstAdmin({ email: 'ada@example.com', password: 'short' })).rejects.toThrow(/too short: at least 12/)
      const admin = await accounts.createFirstAdmin({ email: 'Ada@Example.com', name: 'Ada', password: PASSWORD })
      expect(admin).toMatchObject({ email: 'Ada@Example.com', name: 'Ada', role: 'admin', disabled: false })
      await expect(accounts.createFirstAdmin({ email: 'bob@example.com', password: PASSWORD })).rejects.toThrow(/first admin exists/)

      expect(await accounts.signIn('ada@example.com', 'wrong password!')).toEqual({ refused: 'wrong_password' })
      expect(await accounts.signIn('nobody@example.com', PASSWORD)).toEqual({ refused: 'unknown' })
      const signed = signedIn(await accounts.signIn('ADA@example.COM', PASSWORD))
      expect(signed.account.id).toBe(admin.id)
      const secret = signed.secret
      expect((await accounts.sessionOf(secret))?.email).toBe('Ada@Example.com')

      // The tables hold no secret: the password as Argon2id, the session as its SHA-256.
      const stored = await engine.get<{ password_hash: string }>('SELECT password_hash FROM accounts')
      expect(stored?.password_hash).toMatch(/^\$argon2id\$/)
      const session = await engine.get<{ token_hash: string }>('SELECT token_hash FROM account_sessions')
      expect(session?.token_hash).toBe(createHash('sha256').update(secret).digest('hex'))

      // Idle past its time, the session admits nobody.
      clock += SESSION_IDLE_MS + 1
      expect(await accounts.sessionOf(secret)).toBeNull()
      const again = signedIn(await accounts.signIn('ada@example.com', PASSWORD))
      await accounts.signOut(again.secret)
      expect(await accounts.sessionOf(again.secret)).toBeNull()
      expect(await engine.get('SELECT 1 AS x FROM account_sessions WHERE expires_at > ?', [clock])).toBeUndefined()
    } finally {
      await engine.close()
    }
  })

  it('use a setup link and an invite once each, and sign a disabled member out everywhere', async () => {
    const engine = await storeOf(kind)
    try {
      const accounts = createAccounts({ engine: () => engine })
      const first = await accounts.newSetupLink()
      const setup = await accounts.newSetupLink() // replaces the first
      await expect(accounts.redeem(first, { email: 'ada@example.com', password: PASSWORD })).rejects.toThrow(AccountError)
      // A bad password does not spend the link.
      await expect(accounts.redeem(setup, { email: 'ada@example.com', password: 'short' })).rejects.toThrow(/too short/)
      expect(await accounts.linkRole(setup)).toBe('admin')
      const admin = await accounts.redeem(setup, { email: 'ada@example.com', password: PASSWORD })
      expect(admin.role).toBe('admin')
      await expect(accounts.redeem(setup, { email: 'eve@example.com', password: PASSWORD })).rejects.toThrow(/not valid/)

      const invite = await accounts.invite('viewer', admin.id, 'default')
      const viewer = await accounts.redeem(invite, { email: 'vic@example.com', name: 'Vic', password: PASSWORD })
      expect(viewer.role).toBe('viewer')
      await expect(accounts.redeem(invite, { email: 'val@example.com', password: PASSWORD })).rejects.toThrow(/not valid/)
      await expect(accounts.redeem(await accounts.invite('editor', admin.id, 'default'), { email: 'VIC@example.com', password: PASSWORD })).rejects.toThrow(/exists/)

      expect((await accounts.setRole(viewer.id, 'editor', 'default')).role).toBe('editor')
      await expect(accounts.setRole(admin.id, 'viewer', 'default')).rejects.toThrow(/last admin/)
      const session = signedIn(await accounts.signIn('vic@example.com', PASSWORD))
      expect(await accounts.sessionOf(session.secret)).not.toBeNull()
      // Every socket of a process is checked in one read: which of these sessions still sign someone in.
      const admins = signedIn(await accounts.signIn('ada@example.com', PASSWORD))
      const many = [session.secret, admins.secret, 'not-a-session', ...Array.from({ length: 150 }, (_, i) => `gone-${i}`)]
      expect(await accounts.liveSessions(many)).toEqual(new Map([[session.secret, 'default'], [admins.secret, 'default']]))
      await accounts.setDisabled(viewer.id, true, 'default')
      expect(await accounts.liveSessions(many)).toEqual(new Map([[admins.secret, 'default']]))
      expect(await accounts.sessionOf(session.secret)).toBeNull()
      // Disabled is said (to the audit) only with the right password.
      expect(await accounts.signIn('vic@example.com', PASSWORD)).toEqual({ refused: 'disabled' })
      expect(await accounts.signIn('vic@example.com', 'wrong password!')).toEqual({ refused: 'wrong_password' })
      expect((await accounts.list('default')).map((a) => [a.email, a.role, a.disabled])).toEqual([
        ['ada@example.com', 'admin', false],
        ['vic@example.com', 'editor', true],
      ])
    } finally {
      await engine.close()
    }
  })
})
