// Search by the start of an event id, in any ASCII case, on a real SQLite store: deliveries with
// Hookloop's own lower-case UUIDs, with providers' mixed-case ids, and by the id their consumer saw
// (consumer_event_id) are all found whatever the case typed, the same rows as a case-insensitive
// LIKE over either id; and a delivery is written to one full index over its event id, not two
// (every index on deliveries is paid on every publish: docs/BENCHMARKS.md).
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../electron/engine/store'
import { whereDeliveryEventIdStartsWith } from '../../../electron/engine/store/prefix-search'

/** Deliveries of these event ids; those named in `consumerIds` carry that id their consumer saw. */
function storeWithDeliveries(ids: readonly string[], consumerIds: Readonly<Record<string, string>> = {}) {
  const db = openDatabase({ file: ':memory:' })
  db.prepare(`INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 's', 'http://127.0.0.1:9/', 'stripe', '{}', 0, 0)`).run()
  const event = db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES (?, 't', x'7b7d', 0)`)
  const delivery = db.prepare(`INSERT INTO deliveries (event_id, subscription_id, status, created_at, updated_at, created_wall_at, consumer_event_id) VALUES (?, 's', 'pending', 0, 0, 0, ?)`)
  for (const id of ids) {
    event.run(id)
    delivery.run(id, consumerIds[id] ?? null)
  }
  return db
}

describe('event ids by their start, in any case', () => {
  const ids = [
    ...Array.from({ length: 200 }, () => randomUUID()),
    'evt_1NXWPnJ2eZvKYlo2CXfHqGxQ',
    'evt_1nxwpnj2ezvkylo2cxfhqgxq_lower',
    'EVT_UPPER_1',
    'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
    'ünïcode_Évent',
    'ünïcode_évent',
  ]
  // Deliveries made as a provider: the id their consumer saw, beside Hookloop's UUID.
  const consumerIds = { [ids[2]!]: 'evt_3PConsumerSaw', [ids[3]!]: 'evt_3pconsumer_lower', [ids[4]!]: 'd4a1c0de-github-delivery' }

  it.each(['evt_1nxwpn', 'EVT_1NXWPN', 'Evt_1NxW', 'evt_', 'EVT_UP', 'MSG_2kwp', ids[0]!.slice(0, 6).toUpperCase(), ids[1]!.slice(0, 3), 'ünïcode_É', 'ünïcode_é', 'EVT_3PCONSUMER', 'D4A1C0DE', 'nothing'])(
    'finds the same deliveries as a case-insensitive LIKE over either id for %j',
    (prefix) => {
      const db = storeWithDeliveries(ids, consumerIds)
      try {
        const where: string[] = []
        const params: unknown[] = []
        whereDeliveryEventIdStartsWith('d', prefix, where, params)
        const found = db.prepare(`SELECT d.event_id FROM deliveries d WHERE ${where.join(' AND ')} ORDER BY d.event_id`).pluck().all(...params)
        // LIKE folds ASCII letters only, as NOCASE does; `_` is escaped so it matches itself.
        const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
        const expected = db.prepare(`SELECT event_id FROM deliveries WHERE event_id LIKE ? ESCAPE '\\' OR consumer_event_id LIKE ? ESCAPE '\\' ORDER BY event_id`).pluck().all(like, like)
        expect(found).toEqual(expected)
        if (prefix !== 'nothing') expect(found.length).toBeGreaterThan(0)
      } finally {
        db.close()
      }
    },
  )

  it('keeps one full index over deliveries.event_id; the NOCASE one holds only ids with an ASCII capital', () => {
    const db = storeWithDeliveries(ids)
    try {
      const indexes = db.prepare(`SELECT name, partial FROM pragma_index_list('deliveries')`).all() as { name: string; partial: number }[]
      const overEventId = indexes.filter((index) => (db.prepare(`SELECT name FROM pragma_index_info(?) WHERE seqno = 0`).pluck().get(index.name) as string | undefined) === 'event_id')
      expect(overEventId.filter((index) => index.partial === 0).map((index) => index.name)).toEqual(['deliveries_by_event'])
      const withCapitals = db.prepare(`SELECT COUNT(*) FROM deliveries INDEXED BY deliveries_by_event_with_capitals WHERE event_id <> lower(event_id)`).pluck().get()
      expect(withCapitals).toBe(3) // evt_1NXW…, EVT_UPPER_1, msg_2KWP… (É is not ASCII: NOCASE does not fold it)
    } finally {
      db.close()
    }
  })
})
