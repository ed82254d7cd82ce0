// bench:scale's store: the engine's own schema (migrations run by the store module), then rows
// written with bulk INSERTs in big transactions. A realistic mix: four endpoints (three with a
// dedupe key, one without), one request in ten a duplicate of the one before it, every verify
// verdict, answers 200/500/503; three subscriptions with deliveries in every status (about four
// attempts each). Every column written is named in `seedScaleStore` so it is easy to adapt when the
// schema moves.
import { randomBytes, randomUUID } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { POLICY_PRESETS } from '../../shared/sender'
import { openDatabase } from '../../electron/engine/store'
import { createRetentionSetting } from '../../electron/engine/store/history'
import { LATEST_SCHEMA_VERSION } from '../../electron/engine/store/migrations'

export interface ScaleSize {
  requests: number
  deliveries: number
}

const DAY_MS = 86_400_000
/** Captures and deliveries span this much wall time, oldest first, ending an hour before the seed. */
const SPAN_MS = 20 * DAY_MS
const CHUNK = 50_000

const ENDPOINTS = [
  { id: 'ep-stripe', slug: 'stripe', name: 'Stripe', scheme: 'stripe', dedupe: { type: 'json-path', path: 'id' } },
  { id: 'ep-github', slug: 'github', name: 'GitHub', scheme: 'github', dedupe: { type: 'header', name: 'x-github-delivery' } },
  { id: 'ep-svix', slug: 'svix', name: 'Svix', scheme: 'standard-webhooks', dedupe: { type: 'header', name: 'webhook-id' } },
  { id: 'ep-plain', slug: 'plain', name: 'Plain', scheme: null, dedupe: null },
] as const
const SUBSCRIPTIONS = ['sub-orders', 'sub-billing', 'sub-shipping'] as const
const EVENT_TYPES = ['invoice.paid', 'invoice.payment_failed', 'customer.created', 'charge.refunded', 'order.shipped'] as const

/** One delivery in twenty per slot: [status, attempts]; 80 attempts per 20 deliveries (four on average). */
const DELIVERY_MIX: ReadonlyArray<readonly ['pending' | 'retrying' | 'succeeded' | 'failed', number]> = [
  ['pending', 0],
  ['retrying', 3],
  ['failed', 8],
  ['failed', 8],
  ...Array.from({ length: 13 }, () => ['succeeded', 4] as const),
  ...Array.from({ length: 3 }, () => ['succeeded', 3] as const),
]
const ATTEMPT_GAP_MS = [0, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000]

/** A body of a few hundred bytes, as a provider sends it. */
function body(eventId: string, type: string, i: number, at: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: eventId,
      type,
      created: Math.floor(at / 1000),
      livemode: false,
      data: { object: { id: `in_${i.toString(36).padStart(10, '0')}`, object: 'invoice', amount_due: 1000 + (i % 9000), currency: 'eur', customer: `cus_${(i % 5000).toString(36)}`, status: 'paid', lines: [{ description: 'Pro plan', quantity: 1 + (i % 3) }] } },
    }),
  )
}

/**
 * Writes `size` into a fresh store at `file`: endpoints, requests (receive-only: attempt_id NULL),
 * subscriptions, events, deliveries and attempts. Columns written —
 * requests: endpoint_id, received_at, method, path, headers_json, body, body_size, remote_address,
 * verify_valid, verify_reason, dedupe_key, duplicate_of, duplicate_number, response_status,
 * response_headers_json, response_ms; deliveries: event_id, subscription_id, status, attempts,
 * last_status_code, last_attempt_at, next_attempt_at, created_at, updated_at; attempts: delivery_id,
 * n, started_at, duration_ms, outcome, status_code, url, decision, next_attempt_at.
 */
export function seedScaleStore(file: string, size: ScaleSize): void {
  const db = openDatabase({ file, notice: () => {} })
  db.pragma('synchronous = OFF')
  db.pragma('cache_size = -512000')
  const now = Date.now() - 3_600_000
  const start = now - SPAN_MS

  db.transaction(() => {
    const endpoint = db.prepare(`INSERT INTO endpoints (id, slug, name, scheme, secrets_json, dedupe_json, created_at) VALUES (?, ?, ?, ?, '[]', ?, ?)`)
    for (const e of ENDPOINTS) endpoint.run(e.id, e.slug, e.name, e.scheme, e.dedupe ? JSON.stringify(e.dedupe) : null, start)
    const subscription = db.prepare(`INSERT INTO subscriptions (id, name, url, scheme, secrets_json, policy_json, created_at, updated_at) VALUES (?, ?, ?, 'standard-webhooks', '[]', ?, ?, ?)`)
    for (const id of SUBSCRIPTIONS) subscription.run(id, id.replace('sub-', ''), `http://127.0.0.1:9/${id}`, JSON.stringify(POLICY_PRESETS.pandoktorek), start, start)
    // No scheduled pruning while the bench measures: it runs its own pass at the end.
    createRetentionSetting(db).setRetention({ days: null, maxMb: null })
  })()

  const request = db.prepare(
    `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body, body_size, remote_address, verify_valid, verify_reason,
                           dedupe_key, duplicate_of, duplicate_number, response_status, response_headers_json, response_ms)
     VALUES (?, ?, ?, 'POST', ?, ?, ?, ?, '127.0.0.1', ?, ?, ?, ?, ?, ?, '[["content-type","text/plain"]]', ?)`,
  )
  const requestStep = SPAN_MS / size.requests
  let previous: { id: number; key: string | null; endpoint: number; eventId: string; type: string } | null = null
  for (let from = 0; from < size.requests; from += CHUNK) {
    db.transaction(() => {
      for (let i = from; i < Math.min(size.requests, from + CHUNK); i++) {
        const id = i + 1
        const at = Math.floor(start + i * requestStep)
        // One in ten repeats the request before it (a retry by the provider): same endpoint, same key.
        const repeat = previous !== null && i % 10 === 5
        const ep = repeat ? previous!.endpoint : i % ENDPOINTS.length
        const e = ENDPOINTS[ep]!
        const eventId = repeat ? previous!.eventId : `evt_${randomBytes(12).toString('hex')}`
        const type = repeat ? previous!.type : EVENT_TYPES[i % EVENT_TYPES.length]!
        const key = e.dedupe ? eventId : null
        const verdict = e.scheme === null ? null : i % 17 === 0 ? 0 : 1
        const status = i % 23 === 0 ? 500 : i % 31 === 0 ? 503 : 200
        const headers = JSON.stringify([
          ['content-type', 'application/json'],
          ['user-agent', `${e.name}/1.0`],
          ...(e.dedupe?.type === 'header' ? [[e.dedupe.name, eventId]] : []),
          ...(e.scheme ? [['x-signature', `t=${Math.floor(at / 1000)},v1=${randomBytes(8).toString('hex')}`]] : []),
        ])
        const bytes = body(eventId, type, i, at)
        const duplicateOf = repeat && key !== null ? previous!.id : null
        request.run(id, e.id, at, `/h/${e.slug}`, headers, bytes, bytes.length, verdict, verdict === null ? null : verdict ? 'ok' : 'mismatch', key, duplicateOf, key === null ? null : duplicateOf ? 2 : 1, status, 2 + (i % 40) / 10)
        previous = { id: duplicateOf ?? id, key, endpoint: ep, eventId, type }
      }
    })()
  }

  const event = db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES (?, ?, ?, ?)`)
  const delivery = db.prepare(
    `INSERT INTO deliveries (id, event_id, subscription_id, status, attempts, last_status_code, last_attempt_at, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const attempt = db.prepare(
    `INSERT INTO attempts (delivery_id, n, started_at, duration_ms, outcome, status_code, url, decision, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  // Nothing falls due while the bench runs: what is still scheduled is a month away.
  const later = now + SPAN_MS
  const deliveryStep = SPAN_MS / size.deliveries
  for (let from = 0; from < size.deliveries; from += CHUNK) {
    db.transaction(() => {
      for (let i = from; i < Math.min(size.deliveries, from + CHUNK); i++) {
        const id = i + 1
        const at = Math.floor(start + i * deliveryStep)
        const eventId = randomUUID()
        const type = EVENT_TYPES[i % EVENT_TYPES.length]!
        const subscription = SUBSCRIPTIONS[i % SUBSCRIPTIONS.length]!
        const [status, count] = DELIVERY_MIX[i % DELIVERY_MIX.length]!
        event.run(eventId, type, body(eventId, type, i, at), at)
        const codes = Array.from({ length: count }, (_, n) => (n === count - 1 && status === 'succeeded' ? 200 : n % 2 === 0 ? 503 : 500))
        const lastAt = count === 0 ? null : at + ATTEMPT_GAP_MS[count - 1]!
        const next = status === 'pending' || status === 'retrying' ? later : null
        delivery.run(id, eventId, subscription, status, count, codes[count - 1] ?? null, lastAt, next, at, lastAt ?? at)
        for (let n = 1; n <= count; n++) {
          const code = codes[n - 1]!
          const final = n === count
          const decision = !final ? 'retry' : status === 'succeeded' ? 'succeeded' : status === 'failed' ? 'failed' : 'retry'
          const nextAt = !final ? at + ATTEMPT_GAP_MS[n]! : decision === 'retry' ? later : null
          attempt.run(id, n, at + ATTEMPT_GAP_MS[n - 1]!, 20 + (i % 300), `http_${code}`, code, `http://127.0.0.1:9/${subscription}`, decision, nextAt)
        }
      }
    })()
  }
  db.pragma('synchronous = NORMAL')
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.exec('ANALYZE')
  db.close()
  // A full open seals the (empty) signing secrets, as the engine would on its first start.
  openDatabase({ file, notice: () => {} }).close()
}

/**
 * A data folder holding a seeded store of `size`, in `dataDir`. Stores are cached under `cacheDir`
 * by schema version and size, so a second run copies the file instead of writing it again.
 * Returns how long seeding took (0 when the cache served it).
 */
export function seededDataFolder(dataDir: string, size: ScaleSize, cacheDir: string): { seedMs: number; cached: boolean } {
  const name = `v${LATEST_SCHEMA_VERSION}-${size.requests}r-${size.deliveries}d`
  const cached = join(cacheDir, `${name}.db`)
  let seedMs = 0
  const hit = existsSync(cached)
  if (!hit) {
    mkdirSync(cacheDir, { recursive: true })
    const partial = join(cacheDir, `${name}.partial.db`)
    for (const suffix of ['', '-wal', '-shm', '.key']) rmSync(partial + suffix, { force: true })
    const t0 = Date.now()
    seedScaleStore(partial, size)
    seedMs = Date.now() - t0
    for (const suffix of ['-wal', '-shm']) rmSync(partial + suffix, { force: true })
    if (existsSync(partial + '.key')) renameSync(partial + '.key', cached + '.key')
    renameSync(partial, cached)
  }
  mkdirSync(dataDir, { recursive: true })
  copyFileSync(cached, join(dataDir, 'hookloop.db'))
  if (existsSync(cached + '.key')) copyFileSync(cached + '.key', join(dataDir, 'hookloop.db.key'))
  return { seedMs, cached: hit }
}
