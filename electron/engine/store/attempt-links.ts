// What the store knows about attempt links (sender/attempt-link.ts): the data folder's link key,
// and the attempt a link names. The key lives in the settings table, so every process that opens
// the same database — `serve`, `listen`, the app — signs and checks links with the same key
// whatever data key seals its signing secrets, and a process on another folder (or `hookloop
// trigger` with its own store) never has it. It is no secret from whoever can read the database:
// they can write rows into it anyway. It proves a request was sent by an attempt of this folder.
import { randomBytes } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import type { SqlEngine } from './sql-engine'
import { StoreError } from './store-error'

/** Where the key is kept in settings, and its size (sender-store.ts makes it on a team's PostgreSQL). */
export const KEY_SETTING = 'attempt_link_key'
export const KEY_BYTES = 32

/** The attempt a link names, as the store has it: what its MAC binds besides the body. */
export interface LinkedAttemptRow {
  id: number
  delivery_id: number
  event_id: string
}

export interface AttemptLinkStore {
  /** The data folder's link key, made on first use (two processes racing agree on the first one written). */
  key(): Buffer
  /** Whether a request is already filed under this attempt (an attempt has one request of its own). */
  claimed(id: number): boolean
  /** The attempt of this id with its delivery and event, or undefined when this store has none. */
  attempt(id: number): LinkedAttemptRow | undefined
}

/** AttemptLinkStore's reads, awaited (a team's PostgreSQL). */
export interface AttemptLinkReads {
  claimed(id: number): Promise<boolean>
  attempt(id: number): Promise<LinkedAttemptRow | undefined>
}

const keys = new WeakMap<Database, Buffer>()

const ATTEMPT_SQL = 'SELECT a.id, a.delivery_id, d.event_id FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE a.id = ?'
const CLAIMED_SQL = 'SELECT 1 AS one FROM requests WHERE attempt_id = ? LIMIT 1'

/**
 * The same two reads on a team's PostgreSQL, awaited: the receiver there asks the server about a
 * link (the attempt may be another process's). The key is sender-store.ts's attemptLinkKey.
 */
export function createAttemptLinkReads(engine: SqlEngine): AttemptLinkReads {
  return {
    claimed: async (id) => (await engine.get(CLAIMED_SQL, [id])) !== undefined,
    async attempt(id) {
      const row = await engine.get<LinkedAttemptRow>(ATTEMPT_SQL, [id])
      return row && { id: Number(row.id), delivery_id: Number(row.delivery_id), event_id: row.event_id }
    },
  }
}

export function createAttemptLinkStore(db: Database): AttemptLinkStore {
  const readKey = db.prepare('SELECT value_json FROM settings WHERE key = ?').pluck()
  const insertKey = db.prepare('INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO NOTHING')
  const attempt = db.prepare<[number], LinkedAttemptRow>(ATTEMPT_SQL)

  // A store older than links holds requests linked by a bare attempt number: whatever carried
  // that number, a stranger's request or another store's attempt, was filed under our attempt,
  // and nothing tells those from our own. Their links are dropped (the requests become received
  // traffic), once, by the process that makes the key. A link the receiver checked is stored
  // with its `<id>.<mac>` header; rows with no header at all keep their link only where it holds
  // what a checked link holds (docs/ui.md): an attempt this store has, and its first request.
  // From then on the receiver stores a link only under that rule, so `attempt_id IS NULL` is
  // exactly "received traffic", a predicate an index serves.
  const dropUncheckedLinks = db.prepare(
    `UPDATE requests SET attempt_id = NULL
      WHERE attempt_id IS NOT NULL AND (
        EXISTS (
          SELECT 1 FROM json_each(CASE WHEN json_valid(requests.headers_json) THEN requests.headers_json ELSE '[]' END) h
           WHERE lower(json_extract(h.value, '$[0]')) = 'x-hookloop-attempt' AND instr(json_extract(h.value, '$[1]'), '.') = 0)
        OR NOT EXISTS (SELECT 1 FROM attempts a WHERE a.id = requests.attempt_id)
        OR id > (SELECT MIN(own.id) FROM requests own WHERE own.attempt_id = requests.attempt_id))`,
  )
  const claimed = db.prepare<[number], number>(CLAIMED_SQL).pluck()
  const makeKey = db.transaction((): boolean => {
    const made = insertKey.run(KEY_SETTING, JSON.stringify(randomBytes(KEY_BYTES).toString('base64'))).changes === 1
    if (made) dropUncheckedLinks.run()
    return made
  })

  function load(): Buffer {
    let json = readKey.get(KEY_SETTING) as string | undefined
    if (json === undefined) {
      makeKey()
      json = readKey.get(KEY_SETTING) as string
    }
    const key = Buffer.from(JSON.parse(json) as string, 'base64')
    if (key.length !== KEY_BYTES) throw new StoreError('open_failed', `the attempt link key in settings (${KEY_SETTING}) is not ${KEY_BYTES} bytes of base64`)
    return key
  }

  return {
    key() {
      let key = keys.get(db)
      if (!key) keys.set(db, (key = load()))
      return key
    },
    claimed: (id) => claimed.get(id) !== undefined,
    attempt: (id) => attempt.get(id),
  }
}
