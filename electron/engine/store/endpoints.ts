// Named statements over the `endpoints` table. Settings that have no column of their own
// (signature tolerance, custom HMAC options) live in config_json. Secrets are sealed at rest
// (secret-box.ts): sealed on the way in, opened on the way out.
import type { Database } from 'better-sqlite3'
import { secretBoxOf, type SecretBox } from './secret-box'
import { isSchemeId, type CustomHmacOptions, type SchemeId } from '../../../shared/signatures'
import { customHmacSchema, dedupeKeySchema, type Endpoint } from '../../../shared/receiver'
import { badRowsOf, parseJsonAs, readField, stringArray, withoutBadRows, type BadRow } from './bad-row'
import { prepareWrite, type StoreTable } from './changes'
import type { KeyedStatements } from './keyed-statements'

export interface EndpointDbRow {
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
  /** The rows list() sets aside: each one's first field that does not parse. */
  setAside(): BadRow[]
  /** Resets the bad field to a default; says what it wrote. */
  repair(bad: BadRow): string
}

// What a bad field of an endpoint is reset to, and the words for it: the endpoint keeps its slug
// and its captured requests; it answers again, with less configured.
const RESETS: Record<string, { value: (box: SecretBox) => string | null; words: string }> = {
  config_json: { value: () => '{}', words: '{} (no signature tolerance, custom HMAC or forward targets)' },
  scheme: { value: () => null, words: 'none (its requests are no longer verified)' },
  secrets_json: { value: (box) => box.seal('[]'), words: 'no secrets (add one to verify again)' },
  dedupe_json: { value: () => null, words: 'none (no dedupe key)' },
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

interface EndpointConfig {
  toleranceSeconds?: number | null
  custom?: CustomHmacOptions | null
  forwardTo?: string[]
}

function endpointConfig(value: unknown): EndpointConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected an object')
  const config = value as Record<string, unknown>
  const tolerance = config.toleranceSeconds
  if (tolerance !== undefined && tolerance !== null && (typeof tolerance !== 'number' || !Number.isInteger(tolerance) || tolerance < 0)) throw new Error('toleranceSeconds: expected a whole number of seconds or null')
  const custom = config.custom === undefined || config.custom === null ? null : customHmacSchema.parse(config.custom)
  const forwardTo = config.forwardTo === undefined ? undefined : stringArray(config.forwardTo)
  return { toleranceSeconds: (tolerance as number | null | undefined) ?? null, custom, ...(forwardTo ? { forwardTo } : {}) }
}

/** Every endpoint, in the order the lists show them (the engine's list() and an export's read). */
export const ENDPOINTS_SQL = 'SELECT * FROM endpoints ORDER BY created_at, slug'
/** One endpoint by id or by slug (the engine's get() and the inspector's read, store/detail-reads.ts). */
export const ENDPOINT_BY_ID_SQL = 'SELECT * FROM endpoints WHERE id = ?'
export const ENDPOINT_BY_SLUG_SQL = 'SELECT * FROM endpoints WHERE slug = ?'

// Each field read through readField: a row that does not parse names itself (bad-row.ts). A
// secret sealed with another key is the whole store's problem (secrets_locked), not this row's.
export function endpointFromRow(r: EndpointDbRow, box: SecretBox): Endpoint {
  const row = { table: 'endpoints' as const, id: r.id, label: r.slug }
  const config = readField(row, 'config_json', 'an endpoint\'s settings (toleranceSeconds, custom, forwardTo)', () => parseJsonAs(r.config_json, endpointConfig))
  const opened = box.open(r.secrets_json)
  const endpoint: Endpoint = {
    id: r.id,
    slug: r.slug,
    name: r.name,
    scheme: readField(row, 'scheme', 'a signature scheme or none', () => {
      if (r.scheme !== null && !isSchemeId(r.scheme)) throw new Error(`unknown scheme ${JSON.stringify(r.scheme)}`)
      return r.scheme as SchemeId | null
    }),
    secrets: readField(row, 'secrets_json', 'a list of secrets', () => parseJsonAs(opened, stringArray)),
    toleranceSeconds: config.toleranceSeconds ?? null,
    custom: config.custom ?? null,
    dedupe: r.dedupe_json ? readField(row, 'dedupe_json', 'a dedupe key (header, json-path or template)', () => parseJsonAs(r.dedupe_json!, (v) => dedupeKeySchema.parse(v))) : null,
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
  const read = (row: EndpointDbRow | undefined) => row && endpointFromRow(row, box)
  const insert = write(
    `INSERT INTO endpoints (id, slug, name, scheme, secrets_json, dedupe_json, dedupe_window_ms, body_limit, config_json, created_at)
     VALUES (@id, @slug, @name, @scheme, @secrets_json, @dedupe_json, @dedupe_window_ms, @body_limit, @config_json, @created_at)`,
  )
  const update = write(
    `UPDATE endpoints SET slug = @slug, name = @name, scheme = @scheme, secrets_json = @secrets_json, dedupe_json = @dedupe_json,
       dedupe_window_ms = @dedupe_window_ms, body_limit = @body_limit, config_json = @config_json WHERE id = @id`,
  )
  const remove = write('DELETE FROM endpoints WHERE id = ?', ['endpoints', 'rules']) // rules: ON DELETE CASCADE
  const selectById = db.prepare(ENDPOINT_BY_ID_SQL)
  const selectBySlug = db.prepare(ENDPOINT_BY_SLUG_SQL)
  const selectAll = db.prepare(ENDPOINTS_SQL)
  // One statement per field a repair may reset: the column is never spliced into SQL from a value.
  const resets: Record<string, ReturnType<typeof write>> = {
    config_json: write('UPDATE endpoints SET config_json = ? WHERE id = ?'),
    scheme: write('UPDATE endpoints SET scheme = ? WHERE id = ?'),
    secrets_json: write('UPDATE endpoints SET secrets_json = ? WHERE id = ?'),
    dedupe_json: write('UPDATE endpoints SET dedupe_json = ? WHERE id = ?'),
  }
  return {
    insert: (e) => void insert.run(toRow(e, box)),
    update: (e) => update.run(toRow(e, box)).changes > 0,
    delete: (id) => remove.run(id).changes > 0,
    get: (id) => read(selectById.get(id) as EndpointDbRow | undefined),
    getBySlug: (slug) => read(selectBySlug.get(slug) as EndpointDbRow | undefined),
    // A row that does not parse is set aside: the rest answer (the doctor names it).
    list: () => withoutBadRows(selectAll.all() as EndpointDbRow[], (row) => endpointFromRow(row, box)),
    setAside: () => badRowsOf(selectAll.all() as EndpointDbRow[], (row) => endpointFromRow(row, box)),
    repair(bad) {
      const reset = RESETS[bad.field]
      const statement = resets[bad.field]
      if (!reset || !statement || statement.run(reset.value(box), bad.id).changes === 0) throw new Error(`endpoints: no row ${bad.id} with a field ${bad.field} to repair`)
      return `reset ${bad.field} to ${reset.words}`
    },
  }
}
