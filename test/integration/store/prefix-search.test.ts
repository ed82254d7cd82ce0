// Search by the start of an event id, in any ASCII case, on a real SQLite store: deliveries with
// Hookloop's own lower-case UUIDs and with providers' mixed-case ids are all found whatever the case
// typed, the same rows as a case-insensitive LIKE; and a delivery is written to one full index over
// its event id, not two (every index on deliveries is paid on every publish: docs/BENCHMARKS.md).
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../electron/engine/store'
import { whereDeliveryEventIdStartsWith } from '../../../electron/engine/store/prefix-search'

function storeWithDeliveries(ids: readonly string[]) {
  const db = openDatabase({ file: ':memory:' })
  db.prepare(`INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 's', 'http://127.0.0.1:9/', 'stripe', '{}', 0, 0)`).run()
  const event = db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES (?, 't', x'7b7d', 0)`)
  const delivery = db.prepare(`INSERT INTO deliveries (event_id, subscription_id, status, created_at, updated_at, created_wall_at) VALUES (?, 's', 'pending', 0, 0, 0)`)
  for (const id of ids) {
    event.run(id)
    delivery.run(id)
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

  it.each(['evt_1nxwpn', 'EVT_1NXWPN', 'Evt_1NxW', 'evt_', 'EVT_UP', 'MSG_2kwp', ids[0]!.slice(0, 6).toUpperCase(), ids[1]!.slice(0, 3), 'ünïcode_É', 'ünïcode_é', 'nothing'])(
    'finds the same deliveries as a case-insensitive LIKE for %j',
    (prefix) => {
      const db = storeWithDeliveries(ids)
      try {
        const where: string[] = []
        const params: unknown[] = []
        whereDeliveryEventIdStartsWith('d', prefix, where, params)
        const found = db.prepare(`SELECT d.event_id FROM deliveries d WHERE ${where.join(' AND ')} ORDER BY d.event_id`).pluck().all(...params)
        // LIKE folds ASCII letters only, as NOCASE does; `_` is escaped so it matches itself.
        const expected = db.prepare(`SELECT event_id FROM deliveries WHERE event_id LIKE ? ESCAPE '\\' ORDER BY event_id`).pluck().all(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
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
