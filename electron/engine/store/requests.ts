// Named statements over the `requests` table (captured inbound HTTP requests). The receiver
// assigns ids itself (it links duplicates before a row is committed), so it asks for the
// highest id once at start; one receiver writes one database.
import type { Database } from 'better-sqlite3'
import { writeSql, type WriteSql } from './changes'
import { dedupeKeyParams, sameDedupeKey } from './engine-spelling'
import type { SqlEngine, StoreKind } from './sql-engine'

export interface RequestRow {
  id: number
  endpoint_id: string | null
  received_at: number
  method: string
  path: string
  query: string
  http_version: string
  headers_json: string
  body: Buffer | null
  body_size: number
  body_truncated: number
  remote_address: string | null
  verify_valid: number | null
  verify_reason: string | null
  verify_json: string | null
  dedupe_key: string | null
  duplicate_of: number | null
  duplicate_number: number | null
  rule_id: string | null
  fault_json: string | null
  response_status: number | null
  response_headers_json: string | null
  response_body: Buffer | null
  response_ms: number | null
  attempt_id: number | null
  dedupe_key_mark: string | null
  dedupe_key_bytes: number | null
  not_inspected: string | null
  refused_reason: string | null
  /** Wall time the request was stored (its first byte), whatever clock received_at is on; NULL only for rows written by hand. */
  stored_at: number | null
}

/** What is known once the request is answered (or the connection ended). */
export interface RequestOutcomeRow {
  id: number
  fault_json: string | null
  response_status: number | null
  response_headers_json: string | null
  response_body: Buffer | null
  response_ms: number
}

/** The current group of a dedupe key: its first arrival and how many arrived since. */
export interface KeyGroup {
  firstId: number
  /** received_at of the first arrival: on the wall clock when firstOnWall, else on its attempt's clock. */
  firstAt: number
  /** The wall time the first arrival was stored, whatever its clock. */
  firstWallAt: number
  firstOnWall: boolean
  count: number
}

export interface RequestListQuery {
  endpointId?: string | null
  /** Only rows with an id below this (paging backwards from the newest). */
  beforeId?: number
  limit?: number
}

export interface RequestStore {
  maxId(): number
  get(id: number): RequestRow | undefined
  list(query?: RequestListQuery): RequestRow[]
  count(): number
  /** The latest group of a dedupe key on an endpoint (from the newest row's duplicate link); digest = a marked (hashed) key. */
  keyGroup(endpointId: string, dedupeKey: string, digest?: boolean): KeyGroup | undefined
  byAttempt(attemptId: number): RequestRow[]
  /** For checks and exports: an endpoint's requests in arrival order, those at a path in [from, to), and some by id. */
  byEndpoint(endpointId: string): RequestRow[]
  atPath(path: string, from: number, to: number): RequestRow[]
  byIds(ids: readonly number[]): RequestRow[]
  /** Whether an endpoint has rows with a dedupe key among ids up to maxId. */
  hasKeyedRows(endpointId: string, maxId: number): boolean
}

/** Every column of a captured request, in the order INSERT_REQUEST_SQL binds them (an export reads them all). */
export const REQUEST_COLUMNS = [
  'id', 'endpoint_id', 'received_at', 'method', 'path', 'query', 'http_version', 'headers_json', 'body', 'body_size',
  'body_truncated', 'remote_address', 'verify_valid', 'verify_reason', 'verify_json', 'dedupe_key', 'duplicate_of',
  'duplicate_number', 'rule_id', 'fault_json', 'response_status', 'response_headers_json', 'response_body', 'response_ms', 'attempt_id',
  'dedupe_key_mark', 'dedupe_key_bytes', 'not_inspected', 'refused_reason', 'stored_at',
] as const
const COLUMNS = REQUEST_COLUMNS

/** The newest row of a dedupe key at an endpoint (endpoint id, key, whether the key is a digest): the receiver's count goes on from it. */
// INDEXED BY: without statistics SQLite takes requests_by_endpoint for the ORDER BY and walks every
// request of the endpoint (a receiver then paid that walk per arrival); this index finds the key's rows at once.
// Its parameters: lastOfKeyParams. One text per engine, made once.
const lastOfKeyText = (kind: StoreKind): string => `SELECT id, received_at, stored_at, attempt_id, duplicate_of, duplicate_number FROM requests INDEXED BY requests_by_dedupe_key
      WHERE endpoint_id = ? AND ${sameDedupeKey(kind, 'dedupe_key', '?')} AND (dedupe_key_mark IS NOT NULL) = ? ORDER BY received_at DESC, id DESC LIMIT 1`
export const LAST_OF_KEY_SQL: Readonly<Record<StoreKind, string>> = { sqlite: lastOfKeyText('sqlite'), postgres: lastOfKeyText('postgres') }
const lastOfKeyParams = (kind: StoreKind, endpointId: string, dedupeKey: string, digest: boolean): unknown[] => [endpointId, ...dedupeKeyParams(kind, dedupeKey), digest ? 1 : 0]

const FIRST_OF_KEY_SQL = 'SELECT received_at, stored_at, attempt_id FROM requests WHERE id = ?'

export type KeyTimes = { received_at: number; stored_at: number | null; attempt_id: number | null }
export type LastOfKey = KeyTimes & { id: number; duplicate_of: number | null; duplicate_number: number | null }

/** A key's group from its newest row (and its first arrival's, when that is another row). */
export function groupOf(last: LastOfKey, firstRow: KeyTimes | undefined): KeyGroup {
  // The first arrival may be pruned: its group then dates from the newest arrival.
  const first = last.duplicate_of === null ? last : (firstRow ?? last)
  return {
    firstId: Number(last.duplicate_of ?? last.id),
    firstAt: Number(first.received_at),
    firstWallAt: Number(first.stored_at ?? first.received_at),
    firstOnWall: first.attempt_id === null,
    count: Number(last.duplicate_number ?? 1),
  }
}

/**
 * RequestStore.keyGroup over either engine, awaited, for one key: on a team's PostgreSQL another
 * process may have captured any key, so the receiver asks the server for every keyed arrival (a
 * duplicate answered by one process is numbered on by the next, whichever it is), through the
 * batched form of this read (key-group-reads.ts), whose answers its tests hold against this one.
 * PostgreSQL returns BIGINT columns as text: read back as numbers here.
 */
export async function readKeyGroup(engine: SqlEngine, endpointId: string, dedupeKey: string, digest = false): Promise<KeyGroup | undefined> {
  const last = await engine.get<LastOfKey>(LAST_OF_KEY_SQL[engine.kind], lastOfKeyParams(engine.kind, endpointId, dedupeKey, digest))
  if (!last) return undefined
  return groupOf(last, last.duplicate_of === null ? undefined : await engine.get<KeyTimes>(FIRST_OF_KEY_SQL, [last.duplicate_of]))
}

/** The two capture statements, run by the receiver's capture writer (inline or on its thread). */
export const INSERT_REQUEST_SQL = writeSql('requests', `INSERT INTO requests (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`, COLUMNS)
const OUTCOME_PARAMS = ['fault_json', 'response_status', 'response_headers_json', 'response_body', 'response_ms', 'id'] as const
// The first row's casts give the VALUES list its column types (a bare parameter would be text);
// the rows after it take them. k numbers the rows: of two outcomes for one request the later is
// the one kept (DISTINCT ON), as the two updates one after the other would leave it.
const OUTCOME_TYPES = ['TEXT', 'INTEGER', 'TEXT', 'BYTEA', 'DOUBLE PRECISION', 'BIGINT'] as const
const outcomeRows = (n: number): string =>
  `UPDATE requests SET ${OUTCOME_PARAMS.slice(0, -1).map((c) => `${c} = v.${c}`).join(', ')}
     FROM (SELECT DISTINCT ON (id) * FROM (VALUES ${Array.from({ length: n }, (_, k) => `(${OUTCOME_TYPES.map((t) => (k === 0 ? `CAST(? AS ${t})` : '?')).join(', ')}, ${k})`).join(', ')})
             AS o(${OUTCOME_PARAMS.join(', ')}, k) ORDER BY id, k DESC) AS v
    WHERE requests.id = v.id`
export const UPDATE_OUTCOME_SQL: WriteSql = {
  ...writeSql('requests', 'UPDATE requests SET fault_json = ?, response_status = ?, response_headers_json = ?, response_body = ?, response_ms = ? WHERE id = ?', OUTCOME_PARAMS),
  rows: outcomeRows,
}

/** One captured request whole, also run through SqlEngine (store/detail-reads.ts). */
export const REQUEST_BY_ID_SQL = 'SELECT * FROM requests WHERE id = ?'

/** One captured request whole, awaited on either engine (a resend on a team's PostgreSQL). */
export const readRequestRow = (engine: SqlEngine, id: number): Promise<RequestRow | undefined> => engine.get<RequestRow>(REQUEST_BY_ID_SQL, [id])

export function createRequestStore(db: Database): RequestStore {
  const selectMaxId = db.prepare('SELECT coalesce(max(id), 0) FROM requests').pluck()
  const selectById = db.prepare(REQUEST_BY_ID_SQL)
  const selectCount = db.prepare('SELECT count(*) FROM requests').pluck()
  const selectPage = db.prepare('SELECT * FROM requests WHERE id < @before ORDER BY id DESC LIMIT @limit')
  const selectPageByEndpoint = db.prepare('SELECT * FROM requests WHERE endpoint_id = @endpoint AND id < @before ORDER BY id DESC LIMIT @limit')
  const selectPageUnmatched = db.prepare('SELECT * FROM requests WHERE endpoint_id IS NULL AND id < @before ORDER BY id DESC LIMIT @limit')
  const selectLastOfKey = db.prepare(LAST_OF_KEY_SQL.sqlite)
  const selectFirstOf = db.prepare(FIRST_OF_KEY_SQL)
  const selectByAttempt = db.prepare('SELECT * FROM requests WHERE attempt_id = ? ORDER BY id')
  const selectByEndpoint = db.prepare('SELECT * FROM requests WHERE endpoint_id = ? ORDER BY received_at, id')
  const selectAtPath = db.prepare('SELECT * FROM requests WHERE path = ? AND received_at >= ? AND received_at < ? ORDER BY received_at, id')
  const selectHasKeyed = db.prepare('SELECT 1 FROM requests WHERE endpoint_id = ? AND dedupe_key IS NOT NULL AND id <= ? LIMIT 1').pluck()


  return {
    maxId: () => selectMaxId.get() as number,
    get: (id) => selectById.get(id) as RequestRow | undefined,
    list(query = {}) {
      const params = { before: query.beforeId ?? Number.MAX_SAFE_INTEGER, limit: Math.min(Math.max(query.limit ?? 100, 1), 10_000) }
      if (query.endpointId === undefined) return selectPage.all(params) as RequestRow[]
      if (query.endpointId === null) return selectPageUnmatched.all(params) as RequestRow[]
      return selectPageByEndpoint.all({ ...params, endpoint: query.endpointId }) as RequestRow[]
    },
    count: () => selectCount.get() as number,
    keyGroup(endpointId, dedupeKey, digest = false) {
      const last = selectLastOfKey.get(...lastOfKeyParams('sqlite', endpointId, dedupeKey, digest)) as LastOfKey | undefined
      if (!last) return undefined
      return groupOf(last, last.duplicate_of === null ? undefined : (selectFirstOf.get(last.duplicate_of) as KeyTimes | undefined))
    },
    byAttempt: (attemptId) => selectByAttempt.all(attemptId) as RequestRow[],
    byEndpoint: (endpointId) => selectByEndpoint.all(endpointId) as RequestRow[],
    atPath: (path, from, to) => selectAtPath.all(path, from, to) as RequestRow[],
    byIds: (ids) => ids.map((id) => selectById.get(id) as RequestRow | undefined).filter((row): row is RequestRow => row !== undefined),
    hasKeyedRows: (endpointId, maxId) => selectHasKeyed.get(endpointId, maxId) !== undefined,
  }
}
