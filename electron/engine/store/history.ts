// Named statements for the captured history's size and its pruning: how big the store is, the
// retention settings of this data folder, the next small batch of requests to delete (oldest
// first), deleting a batch, and giving freed pages back to the file system.
import { existsSync, statSync } from 'node:fs'
import type { Database } from 'better-sqlite3'
import { DEFAULT_RETENTION, RETENTION_LIMITS, type RetentionSettings, type StoreSizeView } from '../../../shared/contract'
import { badRowsOf, parseJsonAs, readField, type BadRow } from './bad-row'
import { createCountReads } from './counts'

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

export interface HistoryStore {
  size(): StoreSizeView
  /** SQLite's page size: what freed bytes are given back in. */
  pageSize(): number
  /** Bytes the database's pages hold (free pages not counted): what a size limit compares. */
  usedBytes(): number
  /** The saved retention; one that does not parse counts as the default (set aside: setAside names it). */
  retention(): RetentionSettings
  setRetention(settings: RetentionSettings): void
  /** The retention setting when it does not parse (the doctor lists it). */
  setAside(): BadRow[]
  /** Removes a retention that does not parse: the default applies; says so. */
  repair(bad: BadRow): string
  /** The next batch of the oldest matching requests: at most limits.rows rows, and stops once limits.bytes is reached (at least one row). */
  nextBatch(selection: HistorySelection, limits: BatchLimits): HistoryBatch
  /** Deletes the requests (pointers of survivors to them cleared); returns how many went. */
  deleteIds(ids: readonly number[]): number
  /** Frees up to maxPages free pages back to the file system (incremental vacuum); returns how many. */
  reclaim(maxPages: number): number
  /** Folds the WAL into the database; 'truncate' also shrinks the WAL file to nothing. */
  checkpoint(mode: 'passive' | 'truncate'): void
  maxId(): number
  /** stored_at (wall) of the oldest request, null when there is none. */
  oldestAt(): number | null
  /** The id of the endpoint answering at this slug. */
  endpointIdOf(slug: string): string | undefined
}

interface CandidateRow {
  id: number
  endpoint_id: string | null
  keyed: number
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

const CANDIDATE = `id, endpoint_id, dedupe_key IS NOT NULL AS keyed,
  coalesce(length(body), 0) + coalesce(length(response_body), 0) + length(headers_json) AS weight`

export function createHistoryStore(db: Database): HistoryStore {
  const byAge = db.prepare(`SELECT ${CANDIDATE} FROM requests WHERE stored_at < @before AND id <= @maxId ORDER BY stored_at, id LIMIT @limit`)
  // One endpoint's rows walk requests_by_endpoint; their age is still the wall time they were stored.
  const byEndpoint = db.prepare(
    `SELECT ${CANDIDATE} FROM requests WHERE endpoint_id = @endpoint AND coalesce(stored_at, received_at) < @before AND id <= @maxId ORDER BY received_at, id LIMIT @limit`,
  )
  const oldest = db.prepare(`SELECT ${CANDIDATE} FROM requests WHERE id <= @maxId ORDER BY id LIMIT @limit`)
  const clearPointers = db.prepare('UPDATE requests SET duplicate_of = NULL WHERE duplicate_of IN (SELECT value FROM json_each(?))')
  const deleteRows = db.prepare('DELETE FROM requests WHERE id IN (SELECT value FROM json_each(?))')
  const counts = createCountReads(db)
  const oldestAt = db.prepare('SELECT min(stored_at) FROM requests').pluck()
  const maxId = db.prepare('SELECT coalesce(max(id), 0) FROM requests').pluck()
  const endpointBySlug = db.prepare('SELECT id FROM endpoints WHERE slug = ?').pluck()
  const readSetting = db.prepare("SELECT value_json FROM settings WHERE key = 'retention'").pluck()
  const removeSetting = db.prepare("DELETE FROM settings WHERE key = 'retention'")
  const writeSetting = db.prepare("INSERT INTO settings (key, value_json) VALUES ('retention', ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json")
  const remove = db.transaction((json: string) => {
    clearPointers.run(json)
    return deleteRows.run(json).changes
  })

  const pragma = (name: string) => db.pragma(name, { simple: true }) as number
  const usedBytes = () => (pragma('page_count') - pragma('freelist_count')) * pragma('page_size')

  return {
    pageSize: () => pragma('page_size'),
    size() {
      const pageSize = pragma('page_size')
      const wal = `${db.name}-wal`
      return {
        fileBytes: pragma('page_count') * pageSize,
        usedBytes: usedBytes(),
        walBytes: db.memory || !existsSync(wal) ? 0 : statSync(wal).size,
        requests: counts.capturedRequests(),
        oldestAt: (oldestAt.get() as number | null) ?? null,
        retention: this.retention(),
      }
    },
    usedBytes,
    retention() {
      const json = readSetting.get() as string | undefined
      if (json === undefined) return { ...DEFAULT_RETENTION }
      // A saved retention that does not parse never stops a start: the default applies meanwhile.
      return badRowsOf([json], parseRetention).length > 0 ? { ...DEFAULT_RETENTION } : parseRetention(json)
    },
    setAside() {
      const json = readSetting.get() as string | undefined
      return json === undefined ? [] : badRowsOf([json], parseRetention)
    },
    repair() {
      removeSetting.run()
      return `removed it: the default retention applies (${DEFAULT_RETENTION.days} days, ${DEFAULT_RETENTION.maxMb} MB; set another with \`hookloop prune --save\` or the app's History)`
    },
    setRetention(settings) {
      writeSetting.run(JSON.stringify({ days: settings.days, maxMb: settings.maxMb }))
    },
    nextBatch(selection, limits) {
      const params = { before: selection.before ?? Number.MAX_SAFE_INTEGER, maxId: selection.maxId ?? Number.MAX_SAFE_INTEGER, limit: limits.rows }
      const rows = (
        selection.endpointId !== undefined
          ? byEndpoint.all({ ...params, endpoint: selection.endpointId })
          : selection.before !== undefined
            ? byAge.all(params)
            : oldest.all({ maxId: params.maxId, limit: params.limit })
      ) as CandidateRow[]
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
    deleteIds: (ids) => (ids.length === 0 ? 0 : remove(JSON.stringify(ids))),
    reclaim(maxPages) {
      // Only a file made with auto_vacuum = INCREMENTAL can give pages back; an older one reuses them.
      if (pragma('auto_vacuum') !== 2) return 0
      const before = pragma('freelist_count')
      if (before === 0) return 0
      db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(maxPages))})`)
      return before - pragma('freelist_count')
    },
    checkpoint(mode) {
      if (!db.memory) db.pragma(`wal_checkpoint(${mode === 'truncate' ? 'TRUNCATE' : 'PASSIVE'})`)
    },
    maxId: () => maxId.get() as number,
    oldestAt: () => (oldestAt.get() as number | null) ?? null,
    endpointIdOf: (slug) => endpointBySlug.get(slug) as string | undefined,
  }
}
