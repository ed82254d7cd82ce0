// Named statements over the `subscriptions` table, on either store engine through SqlEngine,
// awaited. Secrets are sealed at rest (secret-box.ts): sealed on the way in, opened on the way out.
import type { Database } from 'better-sqlite3'
import { prepareWrite } from './changes'
import { tellingOthers } from './engine-writes'
import type { SqlEngine } from './sql-engine'
import { DEFAULT_WORKSPACE } from './workspaces'
import { secretBoxOf, type SecretBox } from './secret-box'
import { isEnvelope, type Envelope, policySchema, type Policy, POLICY_PRESETS } from '../../../shared/sender'
import { isProviderId, PROVIDERS, type ProviderId } from '../../../shared/providers'
import { freshSecret } from '../../../shared/secrets'
import { isSchemeId, type SchemeId } from '../../../shared/signatures'
import { badRowsOf, parseJsonAs, readField, stringArray, stringRecord, type BadRow } from './bad-row'

/** Where a subscription delivers: any URL, or one of Hookloop's own endpoints (loop mode). */
export type SubscriptionTarget = { url: string } | { endpoint: string }

export interface Subscription {
  id: string
  name: string
  target: SubscriptionTarget
  scheme: SchemeId
  /** The signing secret. */
  secret: string | undefined
  /** Rotated out, newest first. */
  retiredSecrets: string[]
  policy: Policy
  headers: Record<string, string>
  eventIdHeader: string | null
  envelope: Envelope
  provider: ProviderId | null
  /** The provider API version it delivers; null without a provider or for one without versions. */
  apiVersion: string | null
  paused: boolean
  createdAt: number
  updatedAt: number
}

export interface SubscriptionRow {
  id: string
  name: string
  /** '' when the target is one of our endpoints (endpoint_slug). */
  url: string
  endpoint_slug: string | null
  scheme: string
  /** JSON array of secrets; the first one signs. Plain here: sealed at rest by these statements (secret-box.ts). */
  secrets_json: string
  policy_json: string
  headers_json: string
  event_id_header: string | null
  /** 'event' ({event_id, event_type, payload}) or 'payload' (the payload bytes are the body). */
  envelope: string
  /** Provider pack id (shared/providers/), or null for Hookloop's own shape. */
  provider: string | null
  /** The provider API version the subscription delivers (one its pack lists), or null. */
  api_version: string | null
  paused: number
  created_at: number
  updated_at: number
}

export interface SubscriptionStatements {
  /** In `workspaceId` (default `default`: everything without accounts). */
  insert(row: SubscriptionRow, workspaceId?: string): Promise<void>
  update(row: SubscriptionRow): Promise<void>
  get(id: string): Promise<SubscriptionRow | undefined>
  /** Every row, its secrets opened, in created order. */
  list(): Promise<SubscriptionRow[]>
  setPaused(id: string, paused: boolean, now: number): Promise<boolean>
  setSecrets(id: string, secretsJson: string, now: number): Promise<boolean>
}

/** What still reads the table synchronously on a data folder's own Database (see createSubscriptionRowReads). */
export interface SubscriptionRowReads {
  /** One row, its secrets opened. */
  get(id: string): SubscriptionRow | undefined
  /** The rows list() callers set aside: each one's first field that does not parse. */
  setAside(): BadRow[]
  /** Resets the bad field to a default; says what it wrote. A subscription is never removed here: deliveries hang on it. */
  repair(bad: BadRow, now: number): string
}

// What a bad field of a subscription is reset to: the provider's own choice where it has one.
function repairedField(row: SubscriptionRow, field: string): { value: string; words: string } {
  const pack = isProviderId(row.provider) ? PROVIDERS[row.provider] : null
  const scheme: SchemeId = isSchemeId(row.scheme) ? row.scheme : (pack?.scheme ?? 'standard-webhooks')
  switch (field) {
    case 'policy_json': {
      const preset = pack?.policy ?? 'standard-webhooks'
      return { value: JSON.stringify(POLICY_PRESETS[preset]), words: `the ${preset} retry policy preset` }
    }
    case 'headers_json':
      return { value: '{}', words: 'no extra headers' }
    case 'secrets_json':
      return { value: JSON.stringify([freshSecret(scheme)]), words: 'a new signing secret (the stored ones could not be read; give your app the new one)' }
    case 'scheme':
      return { value: scheme, words: `the ${scheme} scheme` }
    default:
      throw new Error(`subscriptions: no repair for the field ${field}`)
  }
}

const COLUMNS = 'id, name, url, endpoint_slug, scheme, secrets_json, policy_json, headers_json, event_id_header, envelope, provider, api_version, paused, created_at, updated_at'

/** One subscription by id, its secrets still sealed (openedSubscriptionRow opens them). */
export const SUBSCRIPTION_BY_ID_SQL = `SELECT ${COLUMNS} FROM subscriptions WHERE id = ?`

/** A stored row with its secrets opened: the plain JSON the rest of the engine reads. */
export function openedSubscriptionRow(row: SubscriptionRow, box: SecretBox): SubscriptionRow {
  return { ...row, secrets_json: box.open(row.secrets_json) }
}

const LIST_SQL = `SELECT ${COLUMNS} FROM subscriptions ORDER BY created_at, id`
const SET_SECRETS_SQL = 'UPDATE subscriptions SET secrets_json = ?, updated_at = ? WHERE id = ?'

/** The subscriptions' statements on either store engine, awaited; secrets sealed by `box` on the way in, opened on the way out. */
export function createSubscriptionStatements(given: SqlEngine, box: SecretBox): SubscriptionStatements {
  const engine = tellingOthers(given, ['subscriptions'])
  const values = (r: SubscriptionRow) => [r.name, r.url, r.endpoint_slug, r.scheme, box.seal(r.secrets_json), r.policy_json, r.headers_json, r.event_id_header, r.envelope, r.provider, r.api_version, r.paused, r.updated_at]
  return {
    async insert(row, workspaceId = DEFAULT_WORKSPACE) {
      await engine.run(
        `INSERT INTO subscriptions (name, url, endpoint_slug, scheme, secrets_json, policy_json, headers_json, event_id_header, envelope, provider, api_version, paused, updated_at, id, created_at, workspace_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [...values(row), row.id, row.created_at, workspaceId],
      )
    },
    async update(row) {
      await engine.run(
        `UPDATE subscriptions SET name = ?, url = ?, endpoint_slug = ?, scheme = ?, secrets_json = ?, policy_json = ?, headers_json = ?, event_id_header = ?, envelope = ?, provider = ?, api_version = ?, paused = ?, updated_at = ?
         WHERE id = ?`,
        [...values(row), row.id],
      )
    },
    get: async (id) => {
      const row = await engine.get<SubscriptionRow>(SUBSCRIPTION_BY_ID_SQL, [id])
      return row && openedSubscriptionRow(row, box)
    },
    list: async () => (await engine.all<SubscriptionRow>(LIST_SQL)).map((row) => openedSubscriptionRow(row, box)),
    setPaused: async (id, paused, now) => (await engine.run('UPDATE subscriptions SET paused = ?, updated_at = ? WHERE id = ?', [paused ? 1 : 0, now, id])).changes > 0,
    setSecrets: async (id, secretsJson, now) => (await engine.run(SET_SECRETS_SQL, [box.seal(secretsJson), now, id])).changes > 0,
  }
}

/** The subscription rows set aside, on either store engine, awaited (the host's banner). */
export async function subscriptionRowsSetAside(engine: SqlEngine, box: SecretBox): Promise<BadRow[]> {
  return badRowsOf(await engine.all<SubscriptionRow>(LIST_SQL), (row) => subscriptionFromRow(openedSubscriptionRow(row, box)))
}

/**
 * Synchronous reads and repairs on a data folder's Database, for what is not awaited yet: the row
 * doctor (`hookloop doctor`, the host's banner, whose warnings are read synchronously) and the
 * sender's attempt path, which reads a subscription another process added before this one's
 * book has reloaded (sender/subscriptions.ts). Everything else goes through createSubscriptionStatements.
 */
export function createSubscriptionRowReads(db: Database): SubscriptionRowReads {
  const write = (sql: string) => prepareWrite(db, 'subscriptions', sql)
  const box = secretBoxOf(db)
  const opened = (row: SubscriptionRow | undefined): SubscriptionRow | undefined => row && openedSubscriptionRow(row, box)
  const get = db.prepare(SUBSCRIPTION_BY_ID_SQL)
  const list = db.prepare(LIST_SQL)
  // One statement per field a repair may reset: the column is never spliced into SQL from a value.
  const resets: Record<string, ReturnType<typeof write>> = {
    policy_json: write('UPDATE subscriptions SET policy_json = ?, updated_at = ? WHERE id = ?'),
    headers_json: write('UPDATE subscriptions SET headers_json = ?, updated_at = ? WHERE id = ?'),
    secrets_json: write(SET_SECRETS_SQL),
    scheme: write('UPDATE subscriptions SET scheme = ?, updated_at = ? WHERE id = ?'),
  }
  return {
    get: (id) => opened(get.get(id) as SubscriptionRow | undefined),
    setAside: () => badRowsOf(list.all() as SubscriptionRow[], (row) => subscriptionFromRow(opened(row)!)),
    repair(bad, now) {
      const row = opened(get.get(bad.id) as SubscriptionRow | undefined)
      const reset = resets[bad.field]
      if (!row || !reset) throw new Error(`subscriptions: no row ${bad.id} with a field ${bad.field} to repair`)
      const { value, words } = repairedField(row, bad.field)
      reset.run(bad.field === 'secrets_json' ? box.seal(value) : value, now, bad.id)
      return `reset ${bad.field} to ${words}`
    },
  }
}

// The row's edge: the sender's camelCase Subscription in, its snake_case row out, and back.
// Each field read through readField: a row that does not parse names itself (bad-row.ts), and the
// sender sets it aside instead of refusing to start.
export function subscriptionFromRow(row: SubscriptionRow): Subscription {
  const named = { table: 'subscriptions' as const, id: row.id, label: row.name }
  const [secret, ...retiredSecrets] = readField(named, 'secrets_json', 'a list of secrets', () => parseJsonAs(row.secrets_json, stringArray))
  return {
    id: row.id,
    name: row.name,
    target: row.endpoint_slug !== null ? { endpoint: row.endpoint_slug } : { url: row.url },
    scheme: readField(named, 'scheme', 'a signature scheme', () => {
      if (!isSchemeId(row.scheme)) throw new Error(`unknown scheme ${JSON.stringify(row.scheme)}`)
      return row.scheme
    }),
    secret,
    retiredSecrets,
    policy: readField(named, 'policy_json', 'a retry policy', () => parseJsonAs(row.policy_json, (v) => policySchema.parse(v))),
    headers: readField(named, 'headers_json', 'an object of header names and values', () => parseJsonAs(row.headers_json, stringRecord)),
    eventIdHeader: row.event_id_header,
    envelope: isEnvelope(row.envelope) ? row.envelope : 'event',
    provider: isProviderId(row.provider) ? row.provider : null,
    apiVersion: row.api_version,
    paused: row.paused === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function subscriptionToRow(sub: Subscription): SubscriptionRow {
  return {
    id: sub.id,
    name: sub.name,
    url: 'url' in sub.target ? sub.target.url : '',
    endpoint_slug: 'endpoint' in sub.target ? sub.target.endpoint : null,
    scheme: sub.scheme,
    secrets_json: JSON.stringify(sub.secret === undefined ? [] : [sub.secret, ...sub.retiredSecrets]),
    policy_json: JSON.stringify(sub.policy),
    headers_json: JSON.stringify(sub.headers),
    event_id_header: sub.eventIdHeader,
    envelope: sub.envelope,
    provider: sub.provider,
    api_version: sub.apiVersion,
    paused: sub.paused ? 1 : 0,
    created_at: sub.createdAt,
    updated_at: sub.updatedAt,
  }
}
