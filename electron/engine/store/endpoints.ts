// Named statements over the `endpoints` table. Settings that have no column of their own
// (signature tolerance, custom HMAC options) live in config_json. Secrets are sealed at rest
// (secret-box.ts): sealed on the way in, opened on the way out.
import type { Database } from 'better-sqlite3'
import { secretBoxOf, type SecretBox } from './secret-box'
import type { CustomHmacOptions, SchemeId } from '../../../shared/signatures'
import type { DedupeKey, Endpoint } from '../../../shared/receiver'
import { prepareWrite, type StoreTable } from './changes'
import type { KeyedStatements } from './keyed-statements'

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

export interface EndpointStore extends KeyedStatements<Endpoint> {
  update(endpoint: Endpoint): boolean
  delete(id: string): boolean
  getBySlug(slug: string): Endpoint | undefined
  list(): Endpoint[]
}

function toRow(e: Endpoint, box: SecretBox): EndpointDbRow {
  return {
    id: e.id,
    slug: e.slug,
    name: e.name,
    scheme: e.scheme,
    secrets_json: box.seal(JSON.stringify(e.secrets)),
    dedupe_json: e.dedupe ? JSON.stringify(e.dedupe) : null,
    dedupe_window_ms: e.dedupeWindowMs,
    body_limit: e.bodyLimit,
    config_json: JSON.stringify({ toleranceSeconds: e.toleranceSeconds, custom: e.custom, ...(e.forwardTo?.length ? { forwardTo: e.forwardTo } : {}) }),
    created_at: e.createdAt,
  }
}

function fromRow(r: EndpointDbRow, box: SecretBox): Endpoint {
  const config = JSON.parse(r.config_json) as { toleranceSeconds?: number | null; custom?: CustomHmacOptions | null; forwardTo?: string[] }
  const endpoint: Endpoint = {
    id: r.id,
    slug: r.slug,
    name: r.name,
    scheme: r.scheme as SchemeId | null,
    secrets: JSON.parse(box.open(r.secrets_json)) as string[],
    toleranceSeconds: config.toleranceSeconds ?? null,
    custom: config.custom ?? null,
    dedupe: r.dedupe_json ? (JSON.parse(r.dedupe_json) as DedupeKey) : null,
    dedupeWindowMs: r.dedupe_window_ms,
    bodyLimit: r.body_limit,
    createdAt: r.created_at,
  }
  if (config.forwardTo?.length) endpoint.forwardTo = config.forwardTo
  return endpoint
}

export function createEndpointStore(db: Database): EndpointStore {
  const write = (sql: string, tables: StoreTable[] = ['endpoints']) => prepareWrite(db, tables, sql)
  const box = secretBoxOf(db)
  const read = (row: EndpointDbRow | undefined) => row && fromRow(row, box)
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
    insert: (e) => void insert.run(toRow(e, box)),
    update: (e) => update.run(toRow(e, box)).changes > 0,
    delete: (id) => remove.run(id).changes > 0,
    get: (id) => read(selectById.get(id) as EndpointDbRow | undefined),
    getBySlug: (slug) => read(selectBySlug.get(slug) as EndpointDbRow | undefined),
    list: () => (selectAll.all() as EndpointDbRow[]).map((row) => fromRow(row, box)),
  }
}
