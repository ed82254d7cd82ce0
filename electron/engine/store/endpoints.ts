// Named statements over the `endpoints` table. Settings that have no column of their own
// (signature tolerance, custom HMAC options) live in config_json.
import type { Database } from 'better-sqlite3'
import type { CustomHmacOptions, SchemeId } from '../../../shared/signatures'
import type { DedupeKey, Endpoint } from '../../../shared/receiver'
import { prepareWrite, type StoreTable } from './changes'

interface EndpointDbRow {
  id: string
  slug: string
  name: string
  scheme: string | null
  secrets_json: string
  dedupe_json: string | null
  dedupe_window_ms: number
  body_limit: number
  config_json: string
  created_at: number
}

export interface EndpointStore {
  insert(endpoint: Endpoint): void
  update(endpoint: Endpoint): boolean
  delete(id: string): boolean
  get(id: string): Endpoint | undefined
  getBySlug(slug: string): Endpoint | undefined
  list(): Endpoint[]
}

function toRow(e: Endpoint): EndpointDbRow {
  return {
    id: e.id,
    slug: e.slug,
    name: e.name,
    scheme: e.scheme,
    secrets_json: JSON.stringify(e.secrets),
    dedupe_json: e.dedupe ? JSON.stringify(e.dedupe) : null,
    dedupe_window_ms: e.dedupeWindowMs,
    body_limit: e.bodyLimit,
    config_json: JSON.stringify({ toleranceSeconds: e.toleranceSeconds, custom: e.custom }),
    created_at: e.createdAt,
  }
}

function fromRow(r: EndpointDbRow): Endpoint {
  const config = JSON.parse(r.config_json) as { toleranceSeconds?: number | null; custom?: CustomHmacOptions | null }
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    scheme: r.scheme as SchemeId | null,
    secrets: JSON.parse(r.secrets_json) as string[],
    toleranceSeconds: config.toleranceSeconds ?? null,
    custom: config.custom ?? null,
    dedupe: r.dedupe_json ? (JSON.parse(r.dedupe_json) as DedupeKey) : null,
    dedupeWindowMs: r.dedupe_window_ms,
    bodyLimit: r.body_limit,
    createdAt: r.created_at,
  }
}

export function createEndpointStore(db: Database): EndpointStore {
  const write = (sql: string, tables: StoreTable[] = ['endpoints']) => prepareWrite(db, tables, sql)
  const insert = write(
    `INSERT INTO endpoints (id, slug, name, scheme, secrets_json, dedupe_json, dedupe_window_ms, body_limit, config_json, created_at)
     VALUES (@id, @slug, @name, @scheme, @secrets_json, @dedupe_json, @dedupe_window_ms, @body_limit, @config_json, @created_at)`,
  )
  const update = write(
    `UPDATE endpoints SET slug = @slug, name = @name, scheme = @scheme, secrets_json = @secrets_json, dedupe_json = @dedupe_json,
       dedupe_window_ms = @dedupe_window_ms, body_limit = @body_limit, config_json = @config_json WHERE id = @id`,
  )
  const remove = write('DELETE FROM endpoints WHERE id = ?', ['endpoints', 'rules']) // rules: ON DELETE CASCADE
  const selectById = db.prepare('SELECT * FROM endpoints WHERE id = ?')
  const selectBySlug = db.prepare('SELECT * FROM endpoints WHERE slug = ?')
  const selectAll = db.prepare('SELECT * FROM endpoints ORDER BY created_at, slug')
  return {
    insert: (e) => void insert.run(toRow(e)),
    update: (e) => update.run(toRow(e)).changes > 0,
    delete: (id) => remove.run(id).changes > 0,
    get: (id) => {
      const row = selectById.get(id) as EndpointDbRow | undefined
      return row && fromRow(row)
    },
    getBySlug: (slug) => {
      const row = selectBySlug.get(slug) as EndpointDbRow | undefined
      return row && fromRow(row)
    },
    list: () => (selectAll.all() as EndpointDbRow[]).map(fromRow),
  }
}
