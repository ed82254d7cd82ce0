// An attempt in a store without a sender: the rows a sender would have written before the request
// left (subscription, event, delivery, attempt), and the x-hookloop-attempt value that sender
// would have sent with `body`. For receiver tests that need an attempt to link to.
import { randomUUID } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import { resolvePolicy } from '../../shared/sender'
import { attemptLink, type LinkedAttempt } from '../../electron/engine/sender/attempt-link'
import { createAttemptLinkStore } from '../../electron/engine/store/attempt-links'

/** Records one in-flight attempt (the next attempt id) of a fresh delivery of a fresh event. */
export function recordAttempt(db: Database, at = Date.now()): LinkedAttempt {
  const subscriptionId = `sub-${randomUUID()}`
  const eventId = randomUUID()
  db.prepare(
    `INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES (?, 'test', 'http://127.0.0.1:1/h', 'standard-webhooks', ?, ?, ?)`,
  ).run(subscriptionId, JSON.stringify(resolvePolicy('csku')), at, at)
  db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES (?, 'test.event', ?, ?)`).run(eventId, Buffer.from('{}'), at)
  const deliveryId = Number(
    db.prepare(`INSERT INTO deliveries (event_id, subscription_id, status, attempts, created_at, updated_at) VALUES (?, ?, 'pending', 1, ?, ?)`).run(eventId, subscriptionId, at, at)
      .lastInsertRowid,
  )
  const id = Number(
    db.prepare(`INSERT INTO attempts (delivery_id, n, started_at, outcome, decision) VALUES (?, 1, ?, 'in_flight', 'pending')`).run(deliveryId, at).lastInsertRowid,
  )
  return { id, deliveryId, eventId }
}

/** The x-hookloop-attempt value the data folder of `db` gives `attempt` sending `body`. */
export const linkFor = (db: Database, attempt: LinkedAttempt, body: string | Buffer): string =>
  attemptLink(createAttemptLinkStore(db).key(), attempt, Buffer.from(body))
