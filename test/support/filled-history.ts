// A data folder with a history worth pruning, made by a real engine on the real clock: captures
// with bodies (some large and random, so no engine compresses them), a duplicate whose first
// arrival is old, forwarded requests with their legs, loop deliveries with their attempts and
// events (and the requests those attempts made, under one key), a delivery still pending; then
// everything of the first half back-dated OLD_DAYS days, as the wall clock would have stamped it then.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { createEngine, type Engine } from '../../electron/engine/engine'
import { startApp } from './forward-apps'

export const DAY = 86_400_000
export const OLD_DAYS = 40
/** The random bodies' size: a size limit set halfway between two of them falls at the same row on both engines. */
export const BIG = 1_500_000

/** Tables the history lives in, each with the column it is ordered by. */
export const HISTORY_TABLES = { requests: 'id', forward_legs: 'id', deliveries: 'id', attempts: 'id', events: 'id' } as const

async function post(engine: Engine, slug: string, body: Buffer | string, key?: string): Promise<void> {
  const response = await fetch(engine.receiver.endpointUrl(slug), { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...(key ? { 'x-key': key } : {}) }, body })
  await response.arrayBuffer()
}

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (done()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`never: ${what}`)
}

export async function fillHistory(dir: string): Promise<void> {
  const app = await startApp((_req, res) => res.end('ok'))
  const engine = await createEngine({ dataDir: dir, clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
  const count = (sql: string) => engine.db.prepare(sql).pluck().get() as number
  try {
    await engine.putEndpoint({ slug: 'keyed', dedupe: { type: 'header', name: 'x-key' }, dedupe_window_ms: 90 * DAY })
    await engine.putEndpoint({ slug: 'big' })
    await engine.putEndpoint({ slug: 'fwd', forward_to: `${app.url}/hook` })
    const loop = await engine.putSubscription({ name: 'loop', target: { endpoint: 'big' }, scheme: 'standard-webhooks', policy: 'csku' })
    const paused = await engine.putSubscription({ name: 'paused', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', paused: true })

    const half = async (n: number) => {
      await post(engine, 'keyed', `{"n":${n}}`, 'k1')
      await post(engine, 'keyed', `{"n":${n},"key":"own"}`, `k-${n}`)
      await post(engine, 'big', randomBytes(BIG))
      await post(engine, 'fwd', `{"forwarded":${n}}`)
      await post(engine, 'big', randomBytes(BIG))
      const sent = await engine.sendEvent({ subscriptionIds: [loop.id], eventType: 'order.paid', payload: { n, pad: 'p'.repeat(2000) } })
      await until('the loop delivery settled', () => engine.isDeliverySettled(sent.deliveryIds[0]!))
      await engine.quiesce()
      await until('the forward leg recorded', () => count('SELECT count(*) FROM forward_legs') >= n)
    }
    await half(1)
    await engine.quiesce()
    const oldRequests = count('SELECT max(id) FROM requests')
    const oldDeliveries = count('SELECT max(id) FROM deliveries')
    await half(2)
    await engine.sendEvent({ subscriptionIds: [paused.id], eventType: 'order.paid', payload: { n: 3 } })
    await engine.quiesce()
    await engine.close()

    const db = new BetterSqlite3(join(dir, 'hookloop.db'))
    try {
      const ago = OLD_DAYS * DAY
      db.prepare('UPDATE requests SET received_at = received_at - ?, stored_at = stored_at - ? WHERE id <= ?').run(ago, ago, oldRequests)
      db.prepare('UPDATE deliveries SET created_at = created_at - ?, updated_at = updated_at - ?, created_wall_at = created_wall_at - ? WHERE id <= ?').run(ago, ago, ago, oldDeliveries)
      db.prepare('UPDATE events SET created_at = created_at - ?, stored_at = stored_at - ? WHERE id IN (SELECT event_id FROM deliveries WHERE id <= ?)').run(ago, ago, oldDeliveries)
      // The requests the loop attempts made share one key, as a provider's resend of one event
      // would: pruning both deliveries at once unlinks two arrivals of one group together.
      db.prepare("UPDATE requests SET dedupe_key = 'evt_loop' WHERE attempt_id IS NOT NULL").run()
    } finally {
      db.close()
    }
  } finally {
    await engine.close()
    await app.close()
  }
}
