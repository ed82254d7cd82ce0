// A data folder made by a real engine (deliveries, attempts, captures, a duplicate, sealed
// secrets, rules and a breakpoint for every endpoint of two workspaces) copied into a real PostgreSQL and back into a new folder: every row of every table
// comes back the same, ids and links kept; a second copy copies nothing.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { COPIED_TABLES, copyKeyOf, copyStore, openStore, parseStoreLocation, type OpenedStore, type TableCopy } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const quiet = { notice: () => undefined }

async function folderWithTraffic(dir: string): Promise<void> {
  const engine = await createEngine({ dataDir: dir, clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'loop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks', rules: [] })
    const sub = await engine.putSubscription({ name: 'loop', target: { endpoint: 'loop' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'github' })
    for (let i = 0; i < 3; i++) {
      const sent = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'booking.created', payload: { id: i } })
      for (let w = 0; w < 500 && !sent.deliveryIds.every((id) => engine.isDeliverySettled(id)); w++) await new Promise((r) => setTimeout(r, 10))
    }
    await engine.putEndpoint({ slug: 'inbox', secrets: [], dedupe: 'pandoktorek-body', rules: [] })
    // Rules and a breakpoint for every endpoint, of default and of another workspace (schema 29's column and entry).
    const inbox = engine.receiver.endpoints.list().find((e) => e.slug === 'inbox')!
    await engine.receiver.rules.add(inbox.id, { matchers: [{ type: 'header', name: 'x-teapot' }], steps: [{ type: 'reply', status: 418 }] })
    await engine.receiver.rules.add(null, { matchers: [{ type: 'header', name: 'x-gone' }], steps: [{ type: 'reply', status: 410 }] })
    await engine.receiver.rules.add(null, { matchers: [{ type: 'header', name: 'x-busy' }], steps: [{ type: 'reply', status: 503 }] }, { workspaceId: 'ws_pay' })
    engine.receiver.breakpoints.put({ matchers: [{ type: 'header', name: 'x-hold' }] }, 'ws_pay')
    for (const body of ['{"event_id":"a"}', '{"event_id":"a"}', Buffer.from([0xff, 0x00, 0x7b]).toString('latin1')]) {
      await fetch(`${engine.receiver.url}/h/inbox`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
    }
    await engine.quiesce()
  } finally {
    await engine.close()
  }
}

/**
 * Every row of every table, secrets opened (each store seals them with its own key), and without a
 * request's commit_order: the order it was committed in on that store, numbered by each team store itself.
 */
async function rowsOf(store: OpenedStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {}
  for (const table of COPIED_TABLES) {
    const rows = await store.engine.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY ${copyKeyOf(table)}`)
    out[table] = rows.map(({ commit_order: _committed, ...row }) => ('secrets_json' in row ? { ...row, secrets_json: store.secrets.open(row.secrets_json as string) } : row))
  }
  return out
}

const copiedOf = (copies: TableCopy[]) => Object.fromEntries(copies.map((c) => [c.table, c.copied]))

describe('copyStore', () => {
  it('moves a data folder into PostgreSQL and back, every row the same, and copies nothing twice', async () => {
    const original = join(temp.dir, 'laptop')
    await folderWithTraffic(original)
    const from = await openStore(parseStoreLocation(original), quiet)
    const team = await openStore(parseStoreLocation(await postgres.freshDatabase()), { ...quiet, postgresKey: { file: join(temp.dir, 'team.key') } })
    const before = await rowsOf(from)
    expect(before.requests!.length).toBeGreaterThanOrEqual(6)
    expect(before.attempts!.length).toBe(3)
    expect(before.requests!.some((r) => (r as { duplicate_of: number | null }).duplicate_of !== null)).toBe(true)
    expect(new Set(before.rules!.map((r) => (r as { workspace_id: string }).workspace_id))).toEqual(new Set(['default', 'ws_pay']))
    const breakpoints = before.settings!.find((r) => (r as { key: string }).key === 'breakpoints') as { value_json: string }
    expect(JSON.parse(breakpoints.value_json)).toEqual([expect.objectContaining({ endpointId: null, workspaceId: 'ws_pay' })])

    const progress: TableCopy[] = []
    const first = await copyStore(from, team, { batch: 2, onProgress: (p) => progress.push(p) })
    expect(copiedOf(first)).toEqual(Object.fromEntries(Object.entries(before).map(([t, rows]) => [t, rows.length])))
    const requestSteps = progress.filter((p) => p.table === 'requests').map((p) => p.rows)
    expect(requestSteps[0]).toBe(2)
    expect(requestSteps.at(-1)).toBe(before.requests!.length)
    expect(await rowsOf(team)).toEqual(before)
    expect(Object.values(copiedOf(await copyStore(from, team))).every((n) => n === 0)).toBe(true)

    // New rows on the team store take ids after the copied ones.
    const next = await team.engine.get<{ id: number }>(`INSERT INTO events (id, event_type, payload, created_at) VALUES ('e-new', 't', ?, 1) RETURNING id`, [Buffer.from('{}')])
    expect(next).toEqual({ id: 'e-new' })
    const delivery = await team.engine.get<{ id: number }>(
      `INSERT INTO deliveries (event_id, subscription_id, status, created_at, updated_at) VALUES ('e-new', ?, 'pending', 1, 1) RETURNING id`,
      [(before.subscriptions![0] as { id: string }).id],
    )
    expect(delivery!.id).toBeGreaterThan(Math.max(...before.deliveries!.map((d) => (d as { id: number }).id)))
    await team.engine.run(`DELETE FROM deliveries WHERE id = ?`, [delivery!.id])
    await team.engine.run(`DELETE FROM events WHERE id = 'e-new'`)

    const back = await openStore(parseStoreLocation(join(temp.dir, 'back')), quiet)
    await copyStore(team, back)
    expect(await rowsOf(back)).toEqual(before)
    // The request counters (kept by triggers) say the same on all three.
    const counts = (store: OpenedStore) => store.engine.all('SELECT endpoint_key, requests, received_rows FROM request_counts ORDER BY endpoint_key')
    const counted = await counts(from)
    expect(counted.length).toBeGreaterThan(0)
    expect(await counts(team)).toEqual(counted)
    expect(await counts(back)).toEqual(counted)
    // In one batch, so both arrivals of a key are inserted by one statement.
    const whole = await openStore(parseStoreLocation(await postgres.freshDatabase()), { ...quiet, postgresKey: { file: join(temp.dir, 'team.key') } })
    try {
      await copyStore(from, whole)
      expect(await counts(whole)).toEqual(counted)
    } finally {
      await whole.engine.close()
    }
    for (const store of [from, team, back]) await store.engine.close()

    // The folder made from the team store is a working data folder.
    const reopened = await createEngine({ dataDir: join(temp.dir, 'back'), clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
    expect(reopened.receiver.endpoints.list().map((e) => e.slug).sort()).toEqual(['inbox', 'loop'])
    await reopened.close()
  })
})
