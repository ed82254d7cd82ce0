import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openDatabase, LATEST_SCHEMA_VERSION, MIGRATIONS, StoreError, schemaVersion, type Migration } from '../../../electron/engine/store'
import { createForwardLegStore } from '../../../electron/engine/store/forward-legs'
import { useTempDir } from '../../support/use-temp-dir'

describe('store on a real SQLite file', () => {
  const temp = useTempDir()

  it('migrates an empty file to the latest schema, in WAL mode, with every table', () => {
    const db = openDatabase({ file: join(temp.dir, 'data', 'hookloop.db') })
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all()
    expect(tables).toEqual(
      expect.arrayContaining(['attempts', 'deliveries', 'endpoints', 'events', 'requests', 'rules', 'scenarios', 'subscriptions']),
    )
    db.close()
  })

  it('keeps data across a re-open and does not migrate twice', () => {
    const file = join(temp.dir, 'hookloop.db')
    const first = openDatabase({ file })
    first
      .prepare('INSERT INTO events (id, event_type, payload, created_at) VALUES (?, ?, ?, ?)')
      .run('550e8400-e29b-41d4-a716-446655440000', 'booking.created', Buffer.from('{"a":1}'), 1)
    first.close()
    const second = openDatabase({ file })
    const row = second.prepare('SELECT event_type, payload FROM events').get() as { event_type: string; payload: Buffer }
    expect(row.event_type).toBe('booking.created')
    expect(Buffer.isBuffer(row.payload)).toBe(true)
    expect(row.payload.toString()).toBe('{"a":1}')
    second.close()
  })

  it('refuses a database written by a newer version, naming both versions', () => {
    const file = join(temp.dir, 'newer.db')
    const raw = new BetterSqlite3(file)
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 7}`)
    raw.close()
    let caught: unknown
    try {
      openDatabase({ file })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(StoreError)
    expect((caught as StoreError).code).toBe('newer_schema')
    expect((caught as StoreError).message).toContain(`schema version ${LATEST_SCHEMA_VERSION + 7}`)
    // Refusal changed nothing.
    const check = new BetterSqlite3(file)
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION + 7)
    check.close()
  })

  it('rolls back a failed migration and says which one failed', () => {
    const file = join(temp.dir, 'broken.db')
    const migrations: Migration[] = [
      { version: 1, name: 'good', sql: 'CREATE TABLE a (x INTEGER);' },
      { version: 2, name: 'half broken', sql: 'CREATE TABLE b (x INTEGER); CREATE TABLE a (y INTEGER);' },
    ]
    expect(() => openDatabase({ file, migrations })).toThrowError(/migration 2 \(half broken\) failed/)
    const check = new BetterSqlite3(file)
    expect(check.pragma('user_version', { simple: true })).toBe(1)
    // The first statement of the failed migration was rolled back with it.
    expect(check.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'b'").pluck().get()).toBe(0)
    check.close()
  })

  it('a forward leg stored with its own copy of the body (before legs pointed at the capture) still reads it after the upgrade', () => {
    const file = join(temp.dir, 'v5.db')
    const v5 = openDatabase({ file, migrations: MIGRATIONS.filter((m) => m.version <= 5) })
    v5.prepare("INSERT INTO requests (id, received_at, method, path, query, http_version, headers_json, body, body_size, body_truncated) VALUES (1, 1, 'POST', '/h/a', '', '1.1', '[]', ?, 7, 0)").run(Buffer.from('{"n":1}'))
    v5.prepare("INSERT INTO forward_legs (id, request_id, kind, target_url, sent_at, request_method, request_url, request_headers_json, request_body, outcome) VALUES (1, 1, 'forward', 'http://app', 1, 'POST', 'http://app/', '[]', ?, 'answered')").run(Buffer.from('{"n":1}'))
    v5.close()
    const db = openDatabase({ file })
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION)
    expect(createForwardLegStore(db).get(1)?.request.body.toString()).toBe('{"n":1}')
    db.close()
  })

  it('refuses a file that is not a database instead of replacing it', () => {
    const file = join(temp.dir, 'notes.txt')
    writeFileSync(file, 'this is not sqlite, just text that is long enough to have a header page'.repeat(20))
    expect(() => openDatabase({ file })).toThrowError(StoreError)
  })
})
