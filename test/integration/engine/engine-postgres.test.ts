// The composed engine on a team's PostgreSQL (createEngine({ store })): no data file, every part on
// the store it was given. Real HTTP to its receiver is captured and read back through the store as
// on a data folder, the loop links a request to its attempt, a repeated event id is flagged, two
// engines (two pools, as two processes) capture into one database without a lost or doubled row,
// and closing an engine leaves the store to its owner.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine, type Engine, type EngineEvent } from '../../../electron/engine/engine'
import { toRequestRecord, type RequestRecord } from '../../../electron/engine/receiver'
import { createInspectorReads, StoreError, type OpenedStore } from '../../../electron/engine/store'
import { useTeamStores } from '../../support/use-team-stores'
import { useTempDir } from '../../support/use-temp-dir'
import { nextEvent } from '../../support/engine'

const stores = useTeamStores()
const teamStore = (url: string) => stores.open(url)
const temp = useTempDir()
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
type AttemptEvent = Extract<EngineEvent, { attempt: unknown }>

async function engineOn(options: { store?: OpenedStore; dataDir?: string }): Promise<Engine> {
  const engine = await createEngine({ ...options, receiver: { host: '127.0.0.1', port: 0 } })
  stores.after(() => engine.close())
  return engine
}

async function post(engine: Engine, slug: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(engine.endpointUrl(slug), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  await response.arrayBuffer()
  return response.status
}

/** The captures of an engine, read back through its store (SqlEngine), in id order. */
async function storedRequests(engine: Engine): Promise<RequestRecord[]> {
  await engine.quiesce()
  const reads = createInspectorReads(engine.store.engine, engine.store.secrets)
  const ids = await engine.store.engine.all<{ id: number }>('SELECT id FROM requests ORDER BY id')
  const rows = await Promise.all(ids.map(async ({ id }) => (await reads.request(Number(id)))!))
  return rows.map(toRequestRecord)
}

/** What does not depend on the engine or the moment: ids become positions, times and the port go. */
function comparable(records: RequestRecord[]) {
  const position = new Map(records.map((r, i) => [r.id, i]))
  return records.map((r) => ({
    ...r,
    id: position.get(r.id),
    duplicateOf: r.duplicateOf === null ? null : position.get(r.duplicateOf),
    endpointId: r.endpointId === null ? null : 'endpoint',
    ruleId: r.ruleId === null ? null : 'rule',
    receivedAt: 0,
    storedAt: 0,
    headers: r.headers.filter(([name]) => name.toLowerCase() !== 'host'),
    response: { ...r.response, ms: null },
  }))
}

async function captureSome(engine: Engine): Promise<number[]> {
  await engine.putEndpoint({ slug: 'orders', dedupe: { type: 'header', name: 'x-event-id' }, rules: [{ matchers: [{ type: 'event-type', path: 'kind', value: 'refund' }], steps: [{ type: 'reply', status: 409, body: 'no refunds' }] }] })
  return [
    await post(engine, 'orders', { kind: 'order', n: 1 }, { 'x-event-id': 'evt_1' }),
    await post(engine, 'orders', { kind: 'refund', n: 2 }, { 'x-event-id': 'evt_2' }),
    // The same event again: a duplicate of the first.
    await post(engine, 'orders', { kind: 'order', n: 1 }, { 'x-event-id': 'evt_1' }),
    (await fetch(`${engine.receiver.url}/h/nowhere?x=1`, { method: 'PUT', body: 'hello' })).status,
  ]
}

describe('an engine on a team\'s PostgreSQL', () => {
  it('captures real HTTP requests, read back through the store with the same fields as on a data folder, a repeated event id flagged', async () => {
    const store = await teamStore(await stores.freshDatabase())
    const team = await engineOn({ store })
    const folder = await engineOn({ dataDir: join(temp.dir, 'folder') })
    const statuses = await captureSome(team)
    expect(statuses).toEqual(await captureSome(folder))
    expect(statuses).toEqual([200, 409, 200, 404])

    const onTeam = await storedRequests(team)
    expect(onTeam).toHaveLength(4)
    expect(comparable(onTeam)).toEqual(comparable(await storedRequests(folder)))
    const [first, , again, unmatched] = onTeam
    expect([again!.duplicateNumber, again!.duplicateOf, again!.dedupeKey]).toEqual([2, first!.id, 'evt_1'])
    expect(unmatched!.endpointId).toBeNull()
    expect(new Set(onTeam.map((r) => r.id)).size).toBe(4)
  })

  it('delivers to its own endpoint (the loop): the attempt is recorded, the request linked to it, the delivery settled', async () => {
    const store = await teamStore(await stores.freshDatabase())
    const engine = await engineOn({ store })
    await engine.putEndpoint({ slug: 'loop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks', rules: [] })
    const subscription = await engine.putSubscription({ name: 'loop', target: { endpoint: 'loop' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'github' })
    const finished = nextEvent(engine, (e) => e.type === 'attempt.finished')
    const settled = nextEvent(engine, (e) => e.type === 'delivery.updated' && e.delivery.status === 'succeeded' && !e.delivery.inFlight)
    const sent = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'booking.created', payload: { id: 1 } })
    const attempt = ((await finished) as AttemptEvent).attempt
    expect(attempt.outcome).toBe('http_200')
    await settled
    expect(engine.isDeliverySettled(sent.deliveryIds[0]!)).toBe(true)

    const requests = await storedRequests(engine)
    expect(requests).toHaveLength(1)
    expect(requests[0]!.attemptId).toBe(attempt.id)
    expect(requests[0]!.verify?.valid).toBe(true)
    const stored = await store.engine.get<{ outcome: string; delivery_id: number }>('SELECT outcome, delivery_id FROM attempts WHERE id = ?', [attempt.id])
    expect(stored).toEqual({ outcome: 'http_200', delivery_id: sent.deliveryIds[0] })
  })

  it('two engines on one database (two pools, as two processes) capture concurrently: every request stored once under its own id', async () => {
    const url = await stores.freshDatabase()
    const a = await engineOn({ store: await teamStore(url) })
    const b = await engineOn({ store: await teamStore(url) })
    await a.putEndpoint({ slug: 'shared', dedupe: { type: 'header', name: 'x-event-id' }, rules: [] })
    await b.receiver.reloadDefinitions()
    const each = 300
    const burst = (engine: Engine, side: string) =>
      Promise.all(Array.from({ length: each }, (_, i) => post(engine, 'shared', { side, i }, { 'x-event-id': `${side}_${i}` })))
    const statuses = await Promise.all([burst(a, 'a'), burst(b, 'b')])
    expect(statuses.flat().every((s) => s === 200)).toBe(true)
    await Promise.all([a.quiesce(), b.quiesce()])

    const rows = await a.store.engine.all<{ id: number; dedupe_key: string; duplicate_number: number }>('SELECT id, dedupe_key, duplicate_number FROM requests ORDER BY id')
    expect(rows).toHaveLength(2 * each)
    expect(new Set(rows.map((r) => Number(r.id))).size).toBe(2 * each)
    expect(new Set(rows.map((r) => r.dedupe_key)).size).toBe(2 * each)
    expect(rows.every((r) => Number(r.duplicate_number) === 1)).toBe(true)
    const counted = await b.store.engine.get<{ requests: number }>("SELECT requests FROM request_counts WHERE endpoint_key <> ''")
    expect(Number(counted?.requests)).toBe(2 * each)
    for (const side of ['a', 'b']) expect(rows.filter((r) => r.dedupe_key.startsWith(`${side}_`))).toHaveLength(each)
  })

  it('names the store without its password, refuses the data folder handle in a clear sentence, and leaves the store open when it closes', async () => {
    const url = await stores.freshDatabase()
    const store = await teamStore(url)
    const engine = await createEngine({ store, receiver: { host: '127.0.0.1', port: 0 } })
    const password = new URL(url).password
    expect(password).not.toBe('')
    expect(engine.dataFile).toBe(store.engine.where)
    expect(engine.dataFile).not.toContain(password)
    expect(() => engine.db).toThrow(StoreError)
    expect(() => engine.db).toThrow(/needs a data folder/)
    expect(() => engine.receiver.requests.list()).toThrow(StoreError)
    await engine.putEndpoint({ slug: 'kept', rules: [] })
    expect(await post(engine, 'kept', { n: 1 })).toBe(200)
    await engine.close()

    // The store is the caller's: still open, and a new engine (a clock switch) runs on it.
    expect(await store.engine.get<{ n: number }>('SELECT count(*) AS n FROM requests')).toEqual({ n: 1 })
    const next = await engineOn({ store })
    expect(next.receiver.endpoints.list().map((e) => e.slug)).toEqual(['kept'])
    expect(await post(next, 'kept', { n: 2 })).toBe(200)
    expect((await storedRequests(next)).map((r) => r.body.toString())).toEqual(['{"n":1}', '{"n":2}'])
  })
})
