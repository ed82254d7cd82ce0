// A store with a known mix, made through a running host's commands and real HTTP (the engine's
// receiver and sender on loopback, a consumer app of ours), and the figures the UI must show for
// it counted straight from the SQLite file with SQL of its own (not the engine's count module).
//
// The mix: a virtual-clock simulation (retries that reach our endpoints and are flagged as
// duplicate arrivals, a duplicate copy, a delivery failing all ten attempts, one event id at two
// endpoints) long enough that the virtual clock ends more than 24 h after its first deliveries;
// then on the wall clock a paused subscription (pending), a retrying one, succeeded and failed
// deliveries to a URL, and real captures from a client: a duplicate, one event id at two endpoints,
// a request to no endpoint.
import { createServer } from 'node:http'
import type { Database } from 'better-sqlite3'
import type { CommandName, CommandRequest, CommandResponse, SubscriptionMetrics, SubscriptionView, TimelineRow } from '../../shared/contract'
import { DELIVERY_WALL_CREATED_COLUMN } from '../../electron/engine/store/count-definitions'
import { listenLoopback } from './loopback'

export type Call = <C extends CommandName>(name: C, req: CommandRequest<C>) => Promise<CommandResponse<C>>

const SECRET = `whsec_${Buffer.from('the known mix secret, 32 bytes!!').toString('base64')}`
const WEBHOOK_ID = { type: 'header', name: 'webhook-id' } as const
const DAY_MS = 24 * 60 * 60 * 1000

/** A consumer app of ours: /ok answers 200, /final 400 (final), /fail 503 (retried). */
export async function startConsumer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(req.url === '/ok' ? 200 : req.url === '/final' ? 400 : 503).end())
  })
  return listenLoopback(server)
}

export interface KnownMix {
  /** Subscription ids by role. */
  subs: {
    /** Loop to `orders`, which fails the first two arrivals of each event id: retries flagged as duplicates, a duplicate copy. */
    orders: string
    /** Loop to `billing`, always 500: ten attempts, failed, nine duplicate arrivals; made at the virtual start. */
    billing: string
    /** Loop to `shipping` (200): one event of its own. */
    shipping: string
    /** URL answering 503, sent 14.5 virtual hours in: it carries the virtual clock past 24 h. */
    late: string
    paused: string
    retrying: string
    ok: string
    final: string
  }
  endpoints: { orders: string; billing: string; shipping: string }
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read()
    if (done(value)) return value
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`${what}: not reached`)
}

async function settle(call: Call, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    await until(`delivery ${id} final`, () => call('delivery.get', { id }), (d) => (d.status === 'succeeded' || d.status === 'failed') && d.attempts.every((a) => (a.decision as string) !== 'pending'))
  }
}

async function post(url: string, eventId: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify({ event_id: eventId, event_type: 'booking.created', payload: {} }), headers: { 'content-type': 'application/json', 'webhook-id': eventId } })
  await response.arrayBuffer()
}

export async function seedKnownMix(call: Call, options: { receiverUrl: string; consumerUrl: string }): Promise<KnownMix> {
  const subscription = async (name: string, target: CommandRequest<'subscription.create'>['target']) =>
    (await call('subscription.create', { name, target, scheme: 'standard-webhooks', secret: SECRET, policyId: 'pandoktorek' })).id
  const send = async (subscriptionId: string, count = 1, faults: CommandRequest<'event.send'>['faults'] = []) =>
    (await call('event.send', { subscriptionId, eventType: 'booking.created', payload: '{"booking":{"id":7}}', count, faults })).deliveryIds

  await call('clock.set', { mode: 'virtual' })
  const orders = await call('endpoint.create', { name: 'orders', scheme: null, secrets: [], dedupe: WEBHOOK_ID })
  const billing = await call('endpoint.create', { name: 'billing', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: WEBHOOK_ID })
  const shipping = await call('endpoint.create', { name: 'shipping', scheme: null, secrets: [], dedupe: WEBHOOK_ID })
  await call('rule.addPreset', { endpointId: orders.id, preset: 'fail-first', parameters: { n: 2 } })
  await call('rule.addPreset', { endpointId: billing.id, preset: 'always-500' })
  const subs = {
    orders: await subscription('orders feed', { endpointId: orders.id }),
    billing: await subscription('billing feed', { endpointId: billing.id }),
    shipping: await subscription('shipping feed', { endpointId: shipping.id }),
    late: await subscription('late consumer', { url: `${options.consumerUrl}/fail` }),
    paused: '',
    retrying: '',
    ok: '',
    final: '',
  }
  const first = [...(await send(subs.orders, 2)), ...(await send(subs.orders, 1, ['duplicate'])), ...(await send(subs.billing)), ...(await send(subs.shipping))]
  await settle(call, first)
  // 14.5 virtual hours in: ten more hours of retries end past 24 h after the first deliveries.
  await settle(call, await send(subs.late))

  await call('clock.set', { mode: 'real' })
  subs.paused = await subscription('paused feed', { endpointId: shipping.id })
  await call('subscription.setPaused', { id: subs.paused, paused: true })
  subs.retrying = await subscription('retrying consumer', { url: `${options.consumerUrl}/fail` })
  subs.ok = await subscription('happy consumer', { url: `${options.consumerUrl}/ok` })
  subs.final = await subscription('refusing consumer', { url: `${options.consumerUrl}/final` })
  await send(subs.paused)
  const [retrying] = await send(subs.retrying)
  await until('a first attempt that is retried', () => call('delivery.get', { id: retrying! }), (d) => d.status === 'retrying' && d.attempts.length === 1 && d.attempts[0]!.decision === 'retry')
  await settle(call, [...(await send(subs.ok, 2)), ...(await send(subs.final))])

  // Real captures from a client: one event id twice at orders, one event id at two endpoints, and a path no endpoint answers.
  await post(`${options.receiverUrl}/h/orders`, 'evt_twice')
  await post(`${options.receiverUrl}/h/orders`, 'evt_twice')
  await post(`${options.receiverUrl}/h/orders`, 'evt_shared')
  await post(`${options.receiverUrl}/h/billing`, 'evt_shared')
  await post(`${options.receiverUrl}/h/nowhere`, 'evt_lost')
  return { subs, endpoints: { orders: orders.id, billing: billing.id, shipping: shipping.id } }
}

/** What a subscription card must show (the contract's figures, all of them exact), counted in SQL of its own. */
export type DirectMetrics = Omit<SubscriptionMetrics, 'counting'>

export function directMetrics(db: Database, subscriptionId: string, wallNow: number): DirectMetrics {
  const one = (sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number
  const outside = db.prepare('SELECT endpoint_slug IS NULL FROM subscriptions WHERE id = ?').pluck().get(subscriptionId) === 1
  const byStatus = Object.fromEntries(['pending', 'retrying', 'succeeded', 'failed'].map((s) => [s, one('SELECT COUNT(*) FROM deliveries WHERE subscription_id = ? AND status = ?', subscriptionId, s)])) as DirectMetrics['byStatus']
  const of = 'FROM attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE subscription_id = ?)'
  // The one column the badge's window reads (it names the wall-clock creation time): the same column, counted here by SQL of our own.
  const created = DELIVERY_WALL_CREATED_COLUMN
  const deliveries24h = one(`SELECT COUNT(*) FROM deliveries WHERE subscription_id = ? AND ${created} >= ?`, subscriptionId, wallNow - DAY_MS)
  const failed24h = one(`SELECT COUNT(*) FROM deliveries WHERE subscription_id = ? AND ${created} >= ? AND status = 'failed'`, subscriptionId, wallNow - DAY_MS)
  return {
    deliveries: one('SELECT COUNT(*) FROM deliveries WHERE subscription_id = ?', subscriptionId),
    byStatus,
    attempts: one(`SELECT COUNT(*) ${of}`, subscriptionId),
    successes: one(`SELECT COUNT(*) ${of} AND decision = 'succeeded'`, subscriptionId),
    failures: one(`SELECT COUNT(*) ${of} AND decision IN ('retry', 'failed')`, subscriptionId),
    duplicates: outside ? null : one(`SELECT COUNT(*) FROM requests WHERE duplicate_number > 1 AND attempt_id IN (SELECT id ${of})`, subscriptionId),
    deliveries24h,
    failed24h,
    failureRate24h: deliveries24h === 0 ? 0 : failed24h / deliveries24h,
  }
}

/** The card's figures as the contract gives them, in the same shape. */
export function shownMetrics(view: SubscriptionView): DirectMetrics {
  const m = view.metrics
  return {
    deliveries: m.deliveries,
    byStatus: m.byStatus,
    attempts: m.attempts,
    successes: m.successes,
    failures: m.failures,
    duplicates: m.duplicates,
    deliveries24h: m.deliveries24h,
    failed24h: m.failed24h,
    failureRate24h: m.failureRate24h,
  }
}

/** Timeline rows: one per delivery, one per endpoint and dedupe key (or lone request) of requests no attempt made. */
export function directRowTotal(db: Database): number {
  const deliveries = db.prepare('SELECT COUNT(*) FROM deliveries').pluck().get() as number
  const groups = db
    .prepare(`SELECT COUNT(*) FROM (SELECT 1 FROM requests WHERE attempt_id IS NULL GROUP BY endpoint_id, COALESCE(dedupe_key, 'request:' || id))`)
    .pluck()
    .get() as number
  return deliveries + groups
}

/** A row's attempts (or arrivals) and duplicate arrivals, counted in the store. */
export function directRow(db: Database, row: TimelineRow): { attempts: number; duplicates: number } {
  if (row.kind === 'delivery') {
    return {
      attempts: db.prepare('SELECT COUNT(*) FROM attempts WHERE delivery_id = ?').pluck().get(row.deliveryId) as number,
      duplicates: db.prepare('SELECT COUNT(*) FROM requests WHERE duplicate_number > 1 AND attempt_id IN (SELECT id FROM attempts WHERE delivery_id = ?)').pluck().get(row.deliveryId) as number,
    }
  }
  const ids = row.marks.map((m) => m.id)
  const first = db.prepare('SELECT endpoint_id, dedupe_key FROM requests WHERE id = ?').get(ids[0]) as { endpoint_id: string | null; dedupe_key: string | null }
  if (first.dedupe_key === null) return { attempts: 1, duplicates: 0 }
  const group = db.prepare('SELECT COUNT(*) AS attempts, COALESCE(SUM(duplicate_number > 1), 0) AS duplicates FROM requests WHERE attempt_id IS NULL AND endpoint_id IS ? AND dedupe_key = ?')
  return group.get(first.endpoint_id, first.dedupe_key) as { attempts: number; duplicates: number }
}
