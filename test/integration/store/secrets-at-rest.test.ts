// Files and secrets on a real disk: the data folder 0700, the database files 0600 (looser ones
// tightened with a notice), signing secrets sealed so the database bytes (WAL included) hold none,
// plain secrets of an older database sealed on open, and signing/verifying across a restart.
import { randomBytes } from 'node:crypto'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../../electron/engine/engine'
import { createSqliteEngine, openDatabase, secretBoxOf, StoreError } from '../../../electron/engine/store'
import { createEndpointStore } from '../../../electron/engine/store/endpoints'
import { databaseFiles } from '../../../electron/engine/store/file-modes'
import { secretKeyFileOf } from '../../../electron/engine/store/secret-box'
import { useTempDir } from '../../support/use-temp-dir'

const mode = (path: string) => statSync(path).mode & 0o777
const posix = process.platform !== 'win32'

/** Every byte of the database and its WAL, as a latin1 string to search (no decoding). */
function storeBytes(file: string): string {
  return databaseFiles(file)
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n')
}

async function settle(engine: Engine, ids: number[]): Promise<void> {
  // Polls the store (no timed assertion): the delivery settles when its attempts are recorded.
  for (let i = 0; i < 1000 && !ids.every((id) => engine.isDeliverySettled(id)); i++) await new Promise((r) => setTimeout(r, 10))
  await engine.quiesce()
}

describe.runIf(posix)('data folder and database files', () => {
  const temp = useTempDir()

  it('creates the folder 0700, the database, -wal, -shm and key files 0600', () => {
    const file = join(temp.dir, 'data', 'hookloop.db')
    const notices: string[] = []
    const db = openDatabase({ file, notice: (l) => notices.push(l) })
    db.prepare('INSERT INTO events (id, event_type, payload, created_at) VALUES (?, ?, ?, ?)').run('e', 't', Buffer.from('{}'), 1)
    expect(mode(join(temp.dir, 'data'))).toBe(0o700)
    for (const f of databaseFiles(file)) expect(mode(f), f).toBe(0o600)
    expect(mode(secretKeyFileOf(file))).toBe(0o600)
    expect(notices).toEqual([])
    db.close()
  })

  it('tightens an existing 0755 folder and 0644 files, and says so', () => {
    const dir = join(temp.dir, 'old')
    const file = join(dir, 'hookloop.db')
    mkdirSync(dir)
    const first = openDatabase({ file, notice: () => {} })
    first.prepare('INSERT INTO events (id, event_type, payload, created_at) VALUES (?, ?, ?, ?)').run('e', 't', Buffer.from('{}'), 1)
    // A second connection keeps -wal and -shm on disk while the first is closed.
    const keeper = new BetterSqlite3(file)
    keeper.prepare('SELECT count(*) FROM events').get()
    first.close()
    chmodSync(dir, 0o755)
    for (const f of databaseFiles(file)) chmodSync(f, 0o644)
    chmodSync(secretKeyFileOf(file), 0o644)
    const notices: string[] = []
    const again = openDatabase({ file, notice: (l) => notices.push(l) })
    expect(mode(dir)).toBe(0o700)
    for (const f of databaseFiles(file)) expect(mode(f), f).toBe(0o600)
    expect(mode(secretKeyFileOf(file))).toBe(0o600)
    expect(notices.filter((n) => n.startsWith('tightened')).length).toBe(5)
    expect(notices.join('\n')).toContain(`tightened ${dir} from 0755 to 0700`)
    again.close()
    keeper.close()
  })
})

describe('signing secrets at rest', () => {
  const temp = useTempDir()

  const ENDPOINT_SECRET = `whsec_${randomBytes(24).toString('base64')}`
  const SUB_SECRET = `whsec_${randomBytes(24).toString('base64')}`
  const RETIRED = `whsec_${randomBytes(24).toString('base64')}`

  async function engineWithSecrets(dataDir: string, secretKey?: Buffer): Promise<Engine> {
    const engine = await createEngine({ dataDir, receiver: { host: '127.0.0.1', port: 0 }, ...(secretKey ? { secretKey } : {}) })
    await engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: [ENDPOINT_SECRET] })
    await engine.putSubscription({ name: 'loop', target: { endpoint: 'shop' }, scheme: 'standard-webhooks', secrets: [ENDPOINT_SECRET, RETIRED], policy: 'csku' })
    await engine.putSubscription({ name: 'other', target: { url: 'http://127.0.0.1:9/' }, scheme: 'stripe', secrets: [SUB_SECRET], policy: 'stripe' })
    return engine
  }

  function expectNoSecretIn(bytes: string): void {
    for (const secret of [ENDPOINT_SECRET, SUB_SECRET, RETIRED]) {
      expect(bytes.includes(secret)).toBe(false)
      // Nor the part after the prefix (the key material itself).
      expect(bytes.includes(secret.slice(6, 30))).toBe(false)
    }
  }

  it('a copied database (file and WAL, taken while the engine runs) holds no secret byte and does not open without its key', async () => {
    const engine = await engineWithSecrets(temp.dir)
    try {
      expect(existsSync(`${engine.dataFile}-wal`)).toBe(true)
      expectNoSecretIn(storeBytes(engine.dataFile))
      const copy = join(temp.dir, 'copy')
      mkdirSync(copy)
      for (const f of databaseFiles(engine.dataFile)) if (existsSync(f)) copyFileSync(f, join(copy, f.slice(temp.dir.length + 1)))
      const attached = new BetterSqlite3(join(copy, 'hookloop.db'), { readonly: true })
      const stored = attached.prepare('SELECT secrets_json FROM endpoints UNION ALL SELECT secrets_json FROM subscriptions').pluck().all() as string[]
      attached.close()
      expect(stored).toHaveLength(3)
      for (const value of stored) expect(value).toMatch(/^hlenc1:[A-Za-z0-9+/=]+$/)
      // Opened elsewhere, the copy gets a fresh key: its secrets stay sealed, and that is said plainly.
      let caught: unknown
      try {
        openDatabase({ file: join(copy, 'hookloop.db'), notice: () => {} })
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(StoreError)
      expect((caught as StoreError).code).toBe('secrets_locked')
      expect((caught as StoreError).message).toMatch(/sealed with another data key/)
    } finally {
      await engine.close()
    }
    expectNoSecretIn(storeBytes(join(temp.dir, 'hookloop.db')))
  })

  it('signs and verifies after a restart, with the key file or with a key handed in (the app)', async () => {
    for (const secretKey of [undefined, randomBytes(32)]) {
      const dir = join(temp.dir, secretKey ? 'app' : 'cli')
      const first = await engineWithSecrets(dir, secretKey)
      await first.close()
      const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 }, ...(secretKey ? { secretKey } : {}) })
      try {
        expect(engine.receiver.endpoints.list()[0]!.secrets).toEqual([ENDPOINT_SECRET])
        const loop = engine.sender.listSubscriptions().find((s) => s.name === 'loop')!
        const sent = await engine.sendEvent({ subscriptionIds: [loop.id], eventType: 'order.paid', payload: { id: 1 } })
        await settle(engine, sent.deliveryIds)
        const request = engine.receiver.requests.list({ limit: 1 })[0]!
        expect(request.verify?.valid).toBe(true)
        expect(request.verify?.reason).toBe('ok')
      } finally {
        await engine.close()
      }
      if (secretKey) {
        // The app's key is the only key: the same folder opened with another one is refused.
        await expect(createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 }, secretKey: randomBytes(32) })).rejects.toThrow(/sealed with another data key/)
      }
    }
  })

  it('seals the plain-text secrets of an older database on open, leaving no plain byte in the file or WAL', async () => {
    const file = join(temp.dir, 'hookloop.db')
    openDatabase({ file, notice: () => {} }).close()
    // What an older Hookloop wrote: secrets_json in plain text.
    const old = new BetterSqlite3(file)
    old.prepare(`INSERT INTO endpoints (id, slug, name, scheme, secrets_json, created_at) VALUES ('e1', 'shop', 'Shop', 'standard-webhooks', ?, 1)`).run(JSON.stringify([ENDPOINT_SECRET]))
    old
      .prepare(`INSERT INTO subscriptions (id, name, url, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('s1', 's', 'http://127.0.0.1:9/', 'stripe', ?, '{}', 1, 1)`)
      .run(JSON.stringify([SUB_SECRET, RETIRED]))
    old.close()
    expect(storeBytes(file).includes(ENDPOINT_SECRET)).toBe(true)

    const notices: string[] = []
    const db = openDatabase({ file, notice: (l) => notices.push(l) })
    expect(notices.join('\n')).toMatch(/sealed the signing secrets of 2 endpoint\(s\) and subscription\(s\)/)
    expect((await createEndpointStore(createSqliteEngine(db, { closeDatabase: false }), secretBoxOf(db)).get('e1'))!.secrets).toEqual([ENDPOINT_SECRET])
    expectNoSecretIn(storeBytes(file))
    db.close()
    expectNoSecretIn(storeBytes(file))
    // Sealing is done once: a second open finds nothing plain.
    const again: string[] = []
    openDatabase({ file, notice: (l) => again.push(l) }).close()
    expect(again).toEqual([])
  })
})
