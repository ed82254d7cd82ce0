// Statements for the captured history's size and its pruning, on either store engine (SqlEngine):
// how big the store is, the retention settings of the store, the next small batch of requests to
// delete (oldest first), deleting a batch, giving freed space back, and the lock that keeps one
// retention pass at a time on a team's store.
//
// What "MB" means differs by engine, and says so in docs/cli.md ("Pruning a store"):
// - a data folder (SQLite): the bytes of the file's pages in use (free pages not counted);
// - a team's PostgreSQL: the bytes the history's bodies, headers, answers and payloads take as the
//   server stores them (pg_column_size: after its compression), in requests, forward legs,
//   attempts and events. Not pg_total_relation_size: the server keeps a deleted row's space for
//   its next rows (after VACUUM) instead of giving it back, so the space it holds does not fall as
//   rows go, and a limit on it would prune everything.
import { existsSync, statSync } from 'node:fs'
import type { Database } from 'better-sqlite3'
import { DEFAULT_RETENTION, RETENTION_LIMITS, type RetentionSettings, type StoreSizeView } from '../../../shared/contract'
import { badRowsOf, parseJsonAs, readField, type BadRow } from './bad-row'
import { CAPTURED_REQUESTS_SQL } from './counts'
import { jsonList } from './engine-spelling'
import type { SqlEngine } from './sql-engine'

export interface HistorySelection {
  /** Only requests stored before this wall time, ms (stored_at: a simulation's requests age by when they were stored, not by their simulated received_at). */
  before?: number
  /** Only this endpoint's requests. */
  endpointId?: string
  /** Only requests up to this id (Clear history: what existed when it was asked). */
  maxId?: number
}

export interface HistoryBatch {
  ids: number[]
  /** Bytes the batch holds (bodies and headers), roughly what deleting it frees. */
  bytes: number
  /** Endpoints whose dedupe numbering a deleted row may anchor (rows with a dedupe key). */
  keyedEndpointIds: string[]
}

export interface BatchLimits {
  rows: number
  bytes: number
}

/**
 * The history's statements over one SqlEngine. A batch's selection and its delete belong in one
 * transaction (engine.transaction, and this store made over its `tx`): deleteIds clears the
 * pointers to the rows, then deletes them, and must not be seen half done.
 */
export interface HistoryStore {
  size(): Promise<StoreSizeView>
  /** What freed space is given back in: SQLite's page size, PostgreSQL's block size. */
  pageSize(): Promise<number>
  /** Bytes the store holds, as a size limit compares them (the file's pages in use; on PostgreSQL the history's stored values). */
  usedBytes(): Promise<number>
  /** The saved retention; one that does not parse counts as the default. */
  retention(): Promise<RetentionSettings>
  setRetention(settings: RetentionSettings): Promise<void>
  /** The next batch of the oldest matching requests: at most limits.rows rows, and stops once limits.bytes is reached (at least one row). */
  nextBatch(selection: HistorySelection, limits: BatchLimits): Promise<HistoryBatch>
  /** Deletes the requests (pointers of survivors to them cleared); returns how many went. Inside a transaction. */
  deleteIds(ids: readonly number[]): Promise<number>
  /** Gives up to maxPages free pages back to the file system (SQLite's incremental vacuum); returns how many. */
  reclaim(maxPages: number): Promise<number>
  /** After a pass: SQLite folds its WAL into the database (and empties it); PostgreSQL vacuums the pruned tables (with `giveBack`, their space becomes reusable at once and free end pages go back). */
  settle(giveBack: boolean): Promise<number>
  maxId(): Promise<number>
  /** stored_at (wall) of the oldest request, null when there is none. */
  oldestAt(): Promise<number | null>
  /** The id of the endpoint answering at this slug. */
  endpointIdOf(slug: string): Promise<string | undefined>
}

interface CandidateRow {
  id: number
  endpoint_id: string | null
  /** 1/0 on SQLite, true/false on PostgreSQL. */
  keyed: number | boolean
  weight: number
}

/** A limit within RETENTION_LIMITS, or null (no limit). */
function limitOf(value: unknown, name: keyof typeof RETENTION_LIMITS): number | null {
  if (value === undefined || value === null) return null
  const { min, max } = RETENTION_LIMITS[name]
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new Error(`${name}: expected a whole number from ${min} to ${max}, or null`)
  return value
}

function parseRetention(json: string): RetentionSettings {
  return readField({ table: 'settings', id: 'retention', label: 'retention' }, 'value_json', 'retention limits ({"days", "maxMb"})', () =>
    parseJsonAs(json, (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected an object')
      const fields = value as Record<string, unknown>
      return { days: limitOf(fields.days, 'days'), maxMb: limitOf(fields.maxMb, 'maxMb') }
    }),
  )
}

/** The saved retention (value_json of its settings row), the default when there is none or it does not parse (never stops a start). */
function retentionOf(json: string | undefined): RetentionSettings {
  if (json === undefined) return { ...DEFAULT_RETENTION }
  return badRowsOf([json], parseRetention).length > 0 ? { ...DEFAULT_RETENTION } : parseRetention(json)
}

const READ_RETENTION = "SELECT value_json FROM settings WHERE key = 'retention'"
const REMOVE_RETENTION = "DELETE FROM settings WHERE key = 'retention'"
const WRITE_RETENTION = "INSERT INTO settings (key, value_json) VALUES ('retention', ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json"

/** The saved retention when it does not parse, on either store engine, awaited (the host's banner). */
export async function retentionSetAside(engine: SqlEngine): Promise<BadRow[]> {
  const json = (await engine.get<{ value_json: string }>(READ_RETENTION))?.value_json
  return json === undefined ? [] : badRowsOf([json], parseRetention)
}

/** The saved retention on the data folder's own connection, for the row doctor (synchronous, as it is). */
export function createRetentionSetting(db: Database) {
  const read = () => db.prepare(READ_RETENTION).pluck().get() as string | undefined
  return {
    retention: () => retentionOf(read()),
    setRetention: (settings: RetentionSettings) => void db.prepare(WRITE_RETENTION).run(JSON.stringify({ days: settings.days, maxMb: settings.maxMb })),
    /** The retention setting when it does not parse (the doctor lists it). */
    setAside(): BadRow[] {
      const json = read()
      return json === undefined ? [] : badRowsOf([json], parseRetention)
    },
    /** Removes a retention that does not parse: the default applies; says so. */
    repair(_bad: BadRow): string {
      db.prepare(REMOVE_RETENTION).run()
      return `removed it: the default retention applies (${DEFAULT_RETENTION.days} days, ${DEFAULT_RETENTION.maxMb} MB; set another with \`hookloop prune --save\` or the app's History)`
    },
  }
}

const CANDIDATE = `id, endpoint_id, dedupe_key IS NOT NULL AS keyed,
  coalesce(length(body), 0) + coalesce(length(response_body), 0) + length(headers_json) AS weight`
const BY_AGE = `SELECT ${CANDIDATE} FROM requests WHERE stored_at < ? AND id <= ? ORDER BY stored_at, id LIMIT ?`
// One endpoint's rows walk requests_by_endpoint; their age is still the wall time they were stored.
const BY_ENDPOINT = `SELECT ${CANDIDATE} FROM requests WHERE endpoint_id = ? AND coalesce(stored_at, received_at) < ? AND id <= ? ORDER BY received_at, id LIMIT ?`
const OLDEST = `SELECT ${CANDIDATE} FROM requests WHERE id <= ? ORDER BY id LIMIT ?`
const OLDEST_AT = 'SELECT min(stored_at) AS at FROM requests'
const MAX_ID = 'SELECT coalesce(max(id), 0) AS id FROM requests'
const ENDPOINT_BY_SLUG = 'SELECT id FROM endpoints WHERE slug = ?'

/** The tables a team store's history lives in: what its size counts and what a pass vacuums. */
const HISTORY_TABLES = ['requests', 'forward_legs', 'deliveries', 'attempts', 'events'] as const

// PostgreSQL only (see the top): the history's values as the server stores them, and the space
// the store's tables take on the server (what `fileBytes` shows).
const POSTGRES_USED_BYTES = `SELECT
  (SELECT coalesce(sum(coalesce(pg_column_size(body), 0) + coalesce(pg_column_size(response_body), 0) + pg_column_size(headers_json) + coalesce(pg_column_size(response_headers_json), 0)), 0) FROM requests)
  + (SELECT coalesce(sum(pg_column_size(request_body) + coalesce(pg_column_size(response_body), 0) + pg_column_size(request_headers_json) + pg_column_size(response_headers_json)), 0) FROM forward_legs)
  + (SELECT coalesce(sum(coalesce(pg_column_size(response_body), 0) + coalesce(pg_column_size(request_headers_json), 0) + coalesce(pg_column_size(response_headers_json), 0) + coalesce(pg_column_size(error), 0)), 0) FROM attempts)
  + (SELECT coalesce(sum(pg_column_size(payload)), 0) FROM events) AS bytes`
const POSTGRES_TABLE_BYTES = `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'`
const POSTGRES_BLOCK_SIZE = 8192

/**
 * The key of the advisory lock a retention pass holds on a team's store (pg_try_advisory_xact_lock
 * is per database: per store). Any constant the team's other applications are unlikely to use,
 * not the migrations' (postgres-migrate.ts).
 */
const PASS_LOCK = 7_304_151_123

/**
 * Runs `pass` unless another retention pass runs on this store; returns false (and runs nothing)
 * when one does. On PostgreSQL a pass holds an advisory lock for as long as it runs, in a
 * transaction of its own on its own connection that does nothing else (the batches commit on
 * others): a process that dies lets go of it with its connection. A data folder needs none: every
 * batch selects and deletes in one IMMEDIATE transaction, so the file's write lock takes one batch
 * at a time and two passes (two processes) share the work, never the same rows.
 */
export async function oneRetentionPass(engine: SqlEngine, pass: () => Promise<void>): Promise<boolean> {
  if (engine.kind === 'sqlite') {
    await pass()
    return true
  }
  return engine.transaction(async (tx) => {
    const lock = await tx.get<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(CAST(? AS BIGINT)) AS locked', [PASS_LOCK])
    if (!lock?.locked) return false
    await pass()
    return true
  })
}

export function createHistoryStore(engine: SqlEngine): HistoryStore {
  const postgres = engine.kind === 'postgres'
  const ids = `(${jsonList(engine.kind, 'id')})`
  const clearPointers = `UPDATE requests SET duplicate_of = NULL WHERE duplicate_of IN ${ids}`
  const deleteRows = `DELETE FROM requests WHERE id IN ${ids}`

  const pragma = async (name: string): Promise<number> => {
    const row = await engine.get<Record<string, number>>(`PRAGMA ${name}`)
    return row ? (Object.values(row)[0] as number) : 0
  }
  const number = async (sql: string, column: string): Promise<number> => Number((await engine.get<Record<string, unknown>>(sql))?.[column] ?? 0)
  const usedBytes = async (): Promise<number> => {
    if (postgres) return number(POSTGRES_USED_BYTES, 'bytes')
    return ((await pragma('page_count')) - (await pragma('freelist_count'))) * (await pragma('page_size'))
  }
  const fileBytes = async (): Promise<number> => (postgres ? number(POSTGRES_TABLE_BYTES, 'bytes') : (await pragma('page_count')) * (await pragma('page_size')))
  /** The SQLite file's WAL beside it (none in memory); a PostgreSQL server's WAL is the server's, not the store's. */
  const walBytes = async (): Promise<number> => {
    if (postgres) return 0
    const main = (await engine.all<{ name: string; file: string }>('PRAGMA database_list')).find((d) => d.name === 'main')
    const wal = main?.file ? `${main.file}-wal` : ''
    return wal !== '' && existsSync(wal) ? statSync(wal).size : 0
  }
  const oldestAt = async (): Promise<number | null> => (await engine.get<{ at: number | null }>(OLDEST_AT))?.at ?? null
  const retention = async (): Promise<RetentionSettings> => retentionOf((await engine.get<{ value_json: string }>(READ_RETENTION))?.value_json)

  return {
    pageSize: async () => (postgres ? POSTGRES_BLOCK_SIZE : pragma('page_size')),
    async size() {
      return {
        fileBytes: await fileBytes(),
        usedBytes: await usedBytes(),
        walBytes: await walBytes(),
        requests: await number(CAPTURED_REQUESTS_SQL, 'n'),
        oldestAt: await oldestAt(),
        retention: await retention(),
      }
    },
    usedBytes,
    retention,
    async setRetention(settings) {
      await engine.run(WRITE_RETENTION, [JSON.stringify({ days: settings.days, maxMb: settings.maxMb })])
    },
    async nextBatch(selection, limits) {
      const before = selection.before ?? Number.MAX_SAFE_INTEGER
      const maxId = selection.maxId ?? Number.MAX_SAFE_INTEGER
      const rows =
        selection.endpointId !== undefined
          ? await engine.all<CandidateRow>(BY_ENDPOINT, [selection.endpointId, before, maxId, limits.rows])
          : selection.before !== undefined
            ? await engine.all<CandidateRow>(BY_AGE, [before, maxId, limits.rows])
            : await engine.all<CandidateRow>(OLDEST, [maxId, limits.rows])
      const batch: HistoryBatch = { ids: [], bytes: 0, keyedEndpointIds: [] }
      const keyed = new Set<string>()
      for (const row of rows) {
        if (batch.ids.length > 0 && batch.bytes + row.weight > limits.bytes) break
        batch.ids.push(row.id)
        batch.bytes += row.weight
        if (row.keyed && row.endpoint_id !== null) keyed.add(row.endpoint_id)
      }
      batch.keyedEndpointIds = [...keyed]
      return batch
    },
    async deleteIds(list) {
      if (list.length === 0) return 0
      const json = JSON.stringify(list)
      await engine.run(clearPointers, [json])
      // One statement for the batch: the counters' triggers follow each row as it goes, on both engines (count-definitions.ts).
      const deleted = (await engine.run(deleteRows, [json])).changes
      return deleted
    },
    async reclaim(maxPages) {
      // Only a file made with auto_vacuum = INCREMENTAL can give pages back; an older one reuses
      // them. A PostgreSQL server reuses a deleted row's space after VACUUM (settle).
      if (postgres || (await pragma('auto_vacuum')) !== 2) return 0
      const before = await pragma('freelist_count')
      if (before === 0) return 0
      await engine.exec(`PRAGMA incremental_vacuum(${Math.max(1, Math.floor(maxPages))})`)
      return before - (await pragma('freelist_count'))
    },
    async settle(giveBack) {
      if (!postgres) {
        const main = (await engine.all<{ name: string; file: string }>('PRAGMA database_list')).find((d) => d.name === 'main')
        if (main?.file) await engine.exec('PRAGMA wal_checkpoint(TRUNCATE)')
        return 0
      }
      if (!giveBack) return 0 // autovacuum comes by on its own
      // One VACUUM for the five tables: a VACUUM cannot run in a transaction, nor in a text of several statements.
      const held = await fileBytes()
      await engine.exec(`VACUUM ${HISTORY_TABLES.join(', ')}`)
      return Math.max(0, Math.floor((held - (await fileBytes())) / POSTGRES_BLOCK_SIZE))
    },
    maxId: () => number(MAX_ID, 'id'),
    oldestAt,
    endpointIdOf: async (slug) => (await engine.get<{ id: string }>(ENDPOINT_BY_SLUG, [slug]))?.id,
  }
}
