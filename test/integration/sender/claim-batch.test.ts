// The sender's claims of one event-loop turn go to the store in one statement
// (sender/claim-batch.ts), on a real SQLite file: each caller still learns whether its own
// delivery is its to send, a delivery asked for twice in one turn is claimed once, and two senders
// (two connections to the file) asking for the same deliveries at once take each exactly once.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { batchClaims } from '../../../electron/engine/sender/claim-batch'
import { createDeliveryStore, createSqliteEngine, openDatabase, type SqlEngine } from '../../../electron/engine/store'
import { useTempDir } from '../../support/use-temp-dir'

const temp = useTempDir()
const ROWS = 120

async function seeded(): Promise<{ file: string; first: SqlEngine }> {
  const file = join(temp.dir, 'hookloop.db')
  const first = createSqliteEngine(openDatabase({ file, notice: () => undefined }))
  await first.run(`INSERT INTO subscriptions (id, name, url, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('s', 's', 'http://127.0.0.1:9/', 'standard-webhooks', '[]', '{}', 0, 0)`)
  await first.run(`INSERT INTO events (id, event_type, payload, created_at) VALUES ('e', 't', ?, 0)`, [Buffer.from('{}')])
  await first.transaction(async (tx) => {
    for (let i = 1; i <= ROWS; i++) {
      await tx.run(`INSERT INTO deliveries (event_id, subscription_id, status, next_attempt_at, created_at, updated_at, created_wall_at) VALUES ('e', 's', 'pending', ?, 0, 0, 0)`, [1000 + i])
    }
  })
  return { file, first }
}

/** `engine`, counting the claim statements run on it. */
function counting(engine: SqlEngine): { engine: SqlEngine; claimStatements: () => number } {
  let n = 0
  const all: SqlEngine['all'] = (sql, params) => {
    if (/^UPDATE deliveries SET in_flight = 1/.test(sql)) n++
    return engine.all(sql, params)
  }
  return { engine: { ...engine, all }, claimStatements: () => n }
}

describe('claims gathered per event-loop turn (claim-batch.ts)', () => {
  it('claims asked in one turn are one statement, and each caller learns its own outcome', async () => {
    const { first } = await seeded()
    try {
      const { engine, claimStatements } = counting(first)
      const deliveries = batchClaims(createDeliveryStore(first), engine)
      // Every third one asked at a due time the row no longer has.
      const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => deliveries.claim(i + 1, i % 3 === 0 ? 1 : 1000 + i + 1, 'me', 50_000 + i)))
      expect(claimStatements()).toBe(1)
      expect(outcomes).toEqual(Array.from({ length: 60 }, (_, i) => i % 3 !== 0))
      const rows = await first.all<{ id: number; lease_until: number }>('SELECT id, lease_until FROM deliveries WHERE claimed_by = ? ORDER BY id', ['me'])
      expect(rows).toEqual(Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 3 !== 0).map((i) => ({ id: i + 1, lease_until: 50_000 + i })))
      // Asked twice in one turn: the second claim runs after the first and finds it taken.
      expect(await Promise.all([deliveries.claim(61, 1061, 'me', 1), deliveries.claim(61, 1061, 'me', 1)])).toEqual([true, false])
      expect(claimStatements()).toBe(3)
    } finally {
      await first.close()
    }
  })

  it('two senders on two connections asking for the same deliveries at once take each exactly once', async () => {
    const { file, first } = await seeded()
    const second = createSqliteEngine(openDatabase({ file, notice: () => undefined }))
    try {
      const senders = [batchClaims(createDeliveryStore(first), first), batchClaims(createDeliveryStore(second), second)]
      const ids = Array.from({ length: ROWS }, (_, i) => i + 1)
      const outcomes = await Promise.all(
        senders.map((deliveries, k) => Promise.all((k === 0 ? ids : [...ids].reverse()).map(async (id) => ((await deliveries.claim(id, 1000 + id, `sender-${k}`, 1)) ? id : 0)))),
      )
      const claimed = outcomes.flat().filter((id) => id > 0)
      expect(claimed.sort((a, b) => a - b)).toEqual(ids)
      const owners = await first.all<{ id: number; claimed_by: string }>('SELECT id, claimed_by FROM deliveries ORDER BY id')
      expect(owners.map((o) => o.claimed_by)).toEqual(ids.map((id) => (outcomes[0]!.includes(id) ? 'sender-0' : 'sender-1')))
    } finally {
      await second.close()
      await first.close()
    }
  })
})
