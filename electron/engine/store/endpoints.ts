// Named statements over the `endpoints` table. Settings that have no column of their own
// (signature tolerance, custom HMAC options) live in config_json. Secrets are sealed at rest
// (secret-box.ts): sealed on the way in, opened on the way out. The statements run on either store
// engine through SqlEngine, awaited (docs/ARCHITECTURE.md, "Two store engines").
import type { Database } from 'better-sqlite3'
import { secretBoxOf, type SecretBox } from './secret-box'
import { isSchemeId, type CustomHmacOptions, type SchemeId } from '../../../shared/signatures'
import { customHmacSchema, dedupeKeySchema, type Endpoint, type EndpointContract } from '../../../shared/receiver'
import { badRowsOf, parseJsonAs, readField, stringArray, withoutBadRows, type BadRow } from './bad-row'
import { prepareWrite } from './changes'
import { tellingOthers } from './engine-writes'
import type { SqlEngine } from './sql-engine'
import { DEFAULT_WORKSPACE } from './workspaces'

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
  workspace_id: string
}

export interface EndpointStore {
  /** In `workspaceId` (default `default`: everything without accounts). */
  insert(endpoint: Endpoint, workspaceId?: string): Promise<void>
  update(endpoint: Endpoint): Promise<boolean>
  delete(id: string): Promise<boolean>
  get(id: string): Promise<Endpoint | undefined>
  getBySlug(slug: string): Promise<Endpoint | undefined>
  /** Every endpoint that parses, in list order; a row that does not is set aside (the doctor names it). */
  list(): Promise<Endpoint[]>
  /** The same, each with its workspace (the receiver applies a workspace's rules for every endpoint to its endpoints only). */
  listInWorkspaces(): Promise<{ endpoint: Endpoint; workspaceId: string }[]>
}

/** The row doctor's side of the table (row-doctor.ts), on the data folder's own connection. */
export interface EndpointRowRepairs {
  /** The rows list() sets aside: each one's first field that does not parse. */
  setAside(): BadRow[]
  /** Resets the bad field to a default; says what it wrote. */
  repair(bad: BadRow): string
}

// What a bad field of an endpoint is reset to, and the words for it: the endpoint keeps its slug
// and its captured requests; it answers again, with less configured.
const RESETS: Record<string, { value: (box: SecretBox) => string | null; words: string }> = {
  config_json: { value: () => '{}', words: '{} (no signature tolerance, custom HMAC, forward targets or contract)' },
  scheme: { value: () => null, words: 'none (its requests are no longer verified)' },
  secrets_json: { value: (box) => box.seal('[]'), words: 'no secrets (add one to verify again)' },
  dedupe_json: { value: () => null, words: 'none (no dedupe key)' },
}

function toRow(e: Endpoint, box: SecretBox): Omit<EndpointDbRow, 'workspace_id'> {
  return {
    id: e.id,
    slug: e.slug,
    name: e.name,
    scheme: e.scheme,
    secrets_json: box.seal(JSON.stringify(e.secrets)),
    dedupe_json: e.dedupe ? JSON.stringify(e.dedupe) : null,
    dedupe_window_ms: e.dedupeWindowMs,
    body_limit: e.bodyLimit,
    config_json: JSON.stringify({ toleranceSeconds: e.toleranceSeconds, custom: e.custom, ...(e.forwardTo?.length ? { forwardTo: e.forwardTo } : {}), ...(e.contract ? { contract: e.contract } : {}) }),
    created_at: e.createdAt,
  }
}

interface EndpointConfig {
  toleranceSeconds?: number | null
  custom?: CustomHmacOptions | null
  forwardTo?: string[]
  contract?: EndpointContract
}

function contractOf(value: unknown): EndpointContract {
  const c = value as Record<string, unknown> | null
  if (typeof c !== 'object' || c === null || typeof c.spec !== 'string' || typeof c.operation !== 'string') throw new Error('contract: expected { spec, operation }')
  if (c.digest !== undefined && typeof c.digest !== 'string') throw new Error('contract.digest: expected a string')
  return { spec: c.spec, operation: c.operation, ...(typeof c.digest === 'string' ? { digest: c.digest } : {}), ...(c.allowRemoteRefs === true ? { allowRemoteRefs: true } : {}) }
}

function endpointConfig(value: unknown): EndpointConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected an object')
  const config = value as Record<string, unknown>
  const tolerance = config.toleranceSeconds
  if (tolerance !== undefined && tolerance !== null && (typeof tolerance !== 'number' || !Number.isInteger(tolerance) || tolerance < 0)) throw new Error('toleranceSeconds: expected a whole number of seconds or null')
  const custom = config.custom === undefined || config.custom === null ? null : customHmacSchema.parse(config.custom)
  const forwardTo = config.forwardTo === undefined ? undefined : stringArray(config.forwardTo)
  const contract = config.contract === undefined ? undefined : contractOf(config.contract)
  return { toleranceSeconds: (tolerance as number | null | undefined) ?? null, custom, ...(forwardTo ? { forwardTo } : {}), ...(contract ? { contract } : {}) }
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
  const config = readField(row, 'config_json', 'an endpoint\'s settings (toleranceSeconds, custom, forwardTo, contract)', () => parseJsonAs(r.config_json, endpointConfig))
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
  if (config.contract) endpoint.contract = config.contract
  return endpoint
}

const INSERT_SQL = `INSERT INTO endpoints (id, slug, name, scheme, secrets_json, dedupe_json, dedupe_window_ms, body_limit, config_json, created_at, workspace_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
const UPDATE_SQL = `UPDATE endpoints SET slug = ?, name = ?, scheme = ?, secrets_json = ?, dedupe_json = ?,
  dedupe_window_ms = ?, body_limit = ?, config_json = ? WHERE id = ?`

/** The endpoints' statements on either store engine, awaited; secrets sealed by `box` on the way in, opened on the way out. */
export function createEndpointStore(given: SqlEngine, box: SecretBox): EndpointStore {
  const engine = tellingOthers(given, ['endpoints'])
  const read = (row: EndpointDbRow | undefined) => row && endpointFromRow(row, box)
  return {
    async insert(e, workspaceId = DEFAULT_WORKSPACE) {
      const r = toRow(e, box)
      await engine.run(INSERT_SQL, [r.id, r.slug, r.name, r.scheme, r.secrets_json, r.dedupe_json, r.dedupe_window_ms, r.body_limit, r.config_json, r.created_at, workspaceId])
    },
    async update(e) {
      const r = toRow(e, box)
      const { changes } = await engine.run(UPDATE_SQL, [r.slug, r.name, r.scheme, r.secrets_json, r.dedupe_json, r.dedupe_window_ms, r.body_limit, r.config_json, r.id])
      return changes > 0
    },
    // Its rules go with it (ON DELETE CASCADE, on both engines).
    delete: async (id) => (await engine.run('DELETE FROM endpoints WHERE id = ?', [id])).changes > 0,
    get: async (id) => read(await engine.get<EndpointDbRow>(ENDPOINT_BY_ID_SQL, [id])),
    getBySlug: async (slug) => read(await engine.get<EndpointDbRow>(ENDPOINT_BY_SLUG_SQL, [slug])),
    list: async () => withoutBadRows(await engine.all<EndpointDbRow>(ENDPOINTS_SQL), (row) => endpointFromRow(row, box)),
    listInWorkspaces: async () => withoutBadRows(await engine.all<EndpointDbRow>(ENDPOINTS_SQL), (row) => ({ endpoint: endpointFromRow(row, box), workspaceId: row.workspace_id })),
  }
}

/** The endpoint rows set aside, on either store engine, awaited (the host's banner). */
export async function endpointRowsSetAside(engine: SqlEngine, box: SecretBox): Promise<BadRow[]> {
  return badRowsOf(await engine.all<EndpointDbRow>(ENDPOINTS_SQL), (row) => endpointFromRow(row, box))
}

/**
 * The row doctor's reads and repairs, synchronous on a data folder's Database: `hookloop doctor`
 * and the host's banner (its warnings are read synchronously) call them; the rest of the engine
 * reads and writes endpoints through createEndpointStore.
 */
export function createEndpointRowRepairs(db: Database): EndpointRowRepairs {
  const write = (sql: string) => prepareWrite(db, ['endpoints'], sql)
  const box = secretBoxOf(db)
  const selectAll = db.prepare(ENDPOINTS_SQL)
  // One statement per field a repair may reset: the column is never spliced into SQL from a value.
  const resets: Record<string, ReturnType<typeof write>> = {
    config_json: write('UPDATE endpoints SET config_json = ? WHERE id = ?'),
    scheme: write('UPDATE endpoints SET scheme = ? WHERE id = ?'),
    secrets_json: write('UPDATE endpoints SET secrets_json = ? WHERE id = ?'),
    dedupe_json: write('UPDATE endpoints SET dedupe_json = ? WHERE id = ?'),
  }
  return {
    setAside: () => badRowsOf(selectAll.all() as EndpointDbRow[], (row) => endpointFromRow(row, box)),
    repair(bad) {
      const reset = RESETS[bad.field]
      const statement = resets[bad.field]
      if (!reset || !statement || statement.run(reset.value(box), bad.id).changes === 0) throw new Error(`endpoints: no row ${bad.id} with a field ${bad.field} to repair`)
      return `reset ${bad.field} to ${reset.words}`
    },
  }
}
