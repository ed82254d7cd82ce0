// Rows never mix: a delivery's row holds exactly its own attempts, each attempt's inspector shows
// the request that attempt sent, and every captured request is in exactly one timeline row. Real
// engines (receiver and sender on real sockets) over real SQLite files; a request reaches an
// attempt only through a link made under its data folder's key (docs/ui.md, "What makes a row").
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../shared/contract'
import type { Engine } from '../../../electron/engine/engine'
import { createDetailViews } from '../../../electron/engine/host/detail-views'
import { createTimelineViews } from '../../../electron/engine/host/timeline-views'
import { openDatabase } from '../../../electron/engine/store'
import { createVirtualClock } from '../../../electron/engine/clock'
import { linkFor, recordAttempt } from '../../support/attempt-rows'
import { openEngine, virtualEngine } from '../../support/engine'
import { makeTempDir } from '../../support/temp-dir'
import { createSqliteEngine, secretBoxOf } from '../../../electron/engine/store'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** A fresh data folder, its engine on a virtual clock, closed after the test. */
async function engineOnNewFolder(): Promise<{ engine: Engine; dir: string }> {
  const { temp, clock, engine } = await virtualEngine()
  cleanups.push(() => temp.cleanup(), () => clock.dispose(), () => engine.close())
  return { engine, dir: temp.dir }
}

/** Another engine on an existing data folder (as a second `serve` or `listen` on it would be). */
async function engineOnFolder(dir: string): Promise<Engine> {
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) })
  const engine = await openEngine(dir, clock)
  cleanups.push(() => clock.dispose(), () => engine.close())
  return engine
}

/** The endpoint `orders` (Standard Webhooks, deduped by webhook-id) answering 503 to the first `failFirst` arrivals of each event. */
async function ordersEndpoint(engine: Engine, failFirst: number): Promise<void> {
  await engine.putEndpoint({ slug: 'orders', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks', rules: failFirst > 0 ? [{ preset: 'fail-first', n: failFirst }] : [] })
}

/** One event to `target`, every attempt made; resolves once the delivery settled and the captures are stored. */
async function deliver(sender: Engine, target: { endpoint: string } | { url: string }, receiver = sender) {
  const subscription = await sender.putSubscription({ name: 'orders', target, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'csku' })
  const sent = await sender.sendEvent({ subscriptionIds: [subscription.id], eventType: 'order.created', payload: { order: 1 } })
  await sender.sender.settled()
  await receiver.quiesce()
  return { eventId: sent.eventId, deliveryId: sent.deliveryIds[0] as number }
}

function readsOf(engine: Engine) {
  const timeline = createTimelineViews(createSqliteEngine(engine.db, { closeDatabase: false }))
  const details = createDetailViews(createSqliteEngine(engine.db, { closeDatabase: false }), secretBoxOf(engine.db), {
    explainRule: () => '',
    explainFault: () => '',
    endpointUrls: (slug) => ({ localUrl: engine.receiver.endpointUrl(slug), publicUrl: null }),
  })
  return { timeline, details }
}

/** Every timeline row with the captured requests it holds (a delivery's through its attempts). */
async function rowsWithRequests(engine: Engine): Promise<{ row: TimelineRow; requestIds: number[] }[]> {
  const { timeline, details } = readsOf(engine)
  const { rows, total } = await timeline.page({}, 0, 1000)
  expect(rows).toHaveLength(total)
  return Promise.all(
    rows.map(async (row) => ({
      row,
      requestIds:
        row.kind === 'delivery'
          ? ((await details.deliveryDetail(row.deliveryId as number))?.attempts ?? []).flatMap((a) => (a.requestId === null ? [] : [a.requestId]))
          : row.marks.map((m) => m.id),
    })),
  )
}

const requestIdsIn = (db: Database) => db.prepare('SELECT id FROM requests ORDER BY id').pluck().all() as number[]

/** Each request id in the store is held by exactly one row, and rowOfRequest names that row. */
async function expectEachRequestInOneRow(engine: Engine): Promise<void> {
  const rows = await rowsWithRequests(engine)
  const placed = rows.flatMap((r) => r.requestIds).sort((a, b) => a - b)
  expect(placed).toEqual(requestIdsIn(engine.db))
  const { timeline } = readsOf(engine)
  for (const { row, requestIds } of rows) {
    for (const id of requestIds) {
      const place = await timeline.rowOfRequest(id)
      expect(place).toEqual(row.kind === 'delivery' ? { deliveryId: row.deliveryId } : { endpointId: row.endpointId, key: expect.any(String) })
    }
  }
}

/** The delivery's row, and each attempt's own request as its inspector shows it. */
async function deliveryView(engine: Engine, deliveryId: number) {
  const { timeline, details } = readsOf(engine)
  const row = (await timeline.page({}, 0, 1000)).rows.find((r) => r.deliveryId === deliveryId)
  const detail = await details.deliveryDetail(deliveryId)
  if (!row || !detail) throw new Error(`delivery ${deliveryId} has no row`)
  const requests = await Promise.all(detail.attempts.map((a) => (a.requestId === null ? null : details.requestDetail(a.requestId))))
  return { row, detail, requests }
}

const header = (request: { headers: { name: string; value: string }[] } | null | undefined, name: string) => request?.headers.find((h) => h.name.toLowerCase() === name)?.value

/** Posts `body` to the endpoint with these headers, as any client of the public URL can. */
async function post(engine: Engine, body: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(engine.receiver.endpointUrl('orders'), { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } })
  await response.arrayBuffer()
  return response.status
}

describe('rows never mix', () => {
  it('a forged or foreign x-hookloop-attempt, and a copy of an attempt\'s own request, get rows of their own; the delivery keeps exactly its attempts', async () => {
    const { engine } = await engineOnNewFolder()
    await ordersEndpoint(engine, 2)
    const { eventId, deliveryId } = await deliver(engine, { endpoint: 'orders' })
    const before = await deliveryView(engine, deliveryId)
    expect(before.detail.attempts.map((a) => a.statusCode)).toEqual([503, 503, 200])
    const [first] = before.detail.attempts
    const own = before.requests[0]
    if (!first || !own) throw new Error('the first attempt has no request')

    const other = makeTempDir('hookloop-other-folder-')
    const otherDb = openDatabase({ file: join(other.dir, 'hookloop.db') })
    cleanups.push(
      () => other.cleanup(),
      () => void otherDb.close(),
    )
    const stranger = (id: string) => JSON.stringify({ id, event_type: 'order.created', data: { order: 666 } })
    // A bare attempt number, as an older Hookloop (or anyone) sends it.
    await post(engine, stranger('evt_bare'), { 'webhook-id': 'evt_bare', 'x-hookloop-attempt': String(first.id) })
    // A link made under another data folder's key, naming this very attempt, delivery and event.
    const foreignBody = stranger('evt_foreign')
    await post(engine, foreignBody, { 'webhook-id': 'evt_foreign', 'x-hookloop-attempt': linkFor(otherDb, { id: first.id, deliveryId, eventId }, foreignBody) })
    // The first attempt's own request sent again, byte for byte, link included.
    const copyHeaders = Object.fromEntries(own.headers.filter((h) => !['host', 'content-length', 'connection'].includes(h.name.toLowerCase())).map((h) => [h.name, h.value]))
    await post(engine, Buffer.from(own.bodyBase64, 'base64').toString(), copyHeaders)
    await engine.quiesce()

    const after = await deliveryView(engine, deliveryId)
    expect(after.row.marks.map((m) => m.id)).toEqual(before.detail.attempts.map((a) => a.id))
    expect(after.row.attempts).toBe(3)
    // Each attempt's inspector shows the request it sent: this event, not a stranger's.
    expect(after.requests.map((r) => r?.id)).toEqual(before.requests.map((r) => r?.id))
    expect(after.requests.map((r) => header(r, 'webhook-id'))).toEqual([eventId, eventId, eventId])
    expect(new Set(after.requests.map((r) => r?.id)).size).toBe(3)

    const received = (await rowsWithRequests(engine)).filter((r) => r.row.kind === 'received')
    expect(received.map((r) => [r.row.eventId, r.requestIds.length]).sort()).toEqual([
      ['evt_bare', 1],
      ['evt_foreign', 1],
      [eventId, 1],
    ].sort())
    await expectEachRequestInOneRow(engine)
  })

  it('another engine on another data folder delivering its attempt #1 into this endpoint does not land on this engine\'s attempt #1', async () => {
    const { engine: ours } = await engineOnNewFolder()
    await ordersEndpoint(ours, 2)
    const own = await deliver(ours, { endpoint: 'orders' })
    const { engine: theirs } = await engineOnNewFolder()
    const foreign = await deliver(theirs, { url: ours.receiver.endpointUrl('orders') }, ours)
    const ourAttempts = (await deliveryView(ours, own.deliveryId)).detail.attempts.map((a) => a.id)
    const theirAttempts = (await theirs.sender.getDelivery(foreign.deliveryId)).attempts.map((a) => a.id)
    // The same attempt numbers on both sides: only the link tells them apart.
    expect(theirAttempts).toEqual(ourAttempts)

    const view = await deliveryView(ours, own.deliveryId)
    expect(view.row.marks).toHaveLength(3)
    expect(view.requests.map((r) => header(r, 'webhook-id'))).toEqual([own.eventId, own.eventId, own.eventId])
    const theirRow = (await rowsWithRequests(ours)).find((r) => r.row.kind === 'received' && r.row.eventId === foreign.eventId)
    expect(theirRow?.requestIds).toHaveLength(3)
    expect(theirRow?.row.marks.map((m) => m.label)).toEqual(['503', '503', '200'])
    await expectEachRequestInOneRow(ours)
  })

  it('two engines on the same data folder still link: one sends, the other receives', async () => {
    const { engine: receiving, dir } = await engineOnNewFolder()
    await ordersEndpoint(receiving, 0)
    const sending = await engineOnFolder(dir)
    const { eventId, deliveryId } = await deliver(sending, { url: receiving.receiver.endpointUrl('orders') }, receiving)

    const view = await deliveryView(receiving, deliveryId)
    expect(view.row.marks).toHaveLength(1)
    expect(view.requests.map((r) => header(r, 'webhook-id'))).toEqual([eventId])
    expect(view.requests[0]?.attemptId).toBe(view.detail.attempts[0]?.id)
    expect((await rowsWithRequests(receiving)).filter((r) => r.row.kind === 'received')).toEqual([])
    await expectEachRequestInOneRow(receiving)
  })

  it('requests that claim an attempt in a store written before links were checked: none vanishes, none multiplies a mark', async () => {
    const temp = makeTempDir('hookloop-old-claims-')
    cleanups.push(() => temp.cleanup())
    const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) })
    const first = await openEngine(temp.dir, clock)
    await ordersEndpoint(first, 2)
    const { eventId, deliveryId } = await deliver(first, { endpoint: 'orders' })
    const [, second] = (await deliveryView(first, deliveryId)).detail.attempts
    if (!second) throw new Error('no second attempt')
    // What an older receiver stored with no header to tell: attempt_id as claimed, one naming an
    // attempt this store has (a second request for it), one naming an attempt it never had; and
    // no link key yet, as in a store from before links were checked.
    const endpointId = first.receiver.endpoints.list()[0]?.id
    const insert = first.db.prepare(
      `INSERT INTO requests (endpoint_id, received_at, method, path, headers_json, body, body_size, dedupe_key, attempt_id) VALUES (?, ?, 'POST', '/h/orders', '[]', ?, 2, ?, ?)`,
    )
    insert.run(endpointId, Date.UTC(2026, 0, 2), Buffer.from('{}'), 'evt_claims_second', second.id)
    insert.run(endpointId, Date.UTC(2026, 0, 2), Buffer.from('{}'), 'evt_claims_unknown', 9_999)
    first.db.prepare("DELETE FROM settings WHERE key = 'attempt_link_key'").run()
    await first.close()
    clock.dispose()

    const engine = await engineOnFolder(temp.dir)
    const view = await deliveryView(engine, deliveryId)
    expect(view.row.marks).toHaveLength(3)
    expect(view.requests.map((r) => header(r, 'webhook-id'))).toEqual([eventId, eventId, eventId])
    const received = (await rowsWithRequests(engine)).filter((r) => r.row.kind === 'received').map((r) => r.row.eventId)
    expect(received.sort()).toEqual(['evt_claims_second', 'evt_claims_unknown'])
    await expectEachRequestInOneRow(engine)
  })

  it('a store written before links were checked: links made by a bare number are dropped at the first open, the stranger\'s request no longer shows as our attempt\'s', async () => {
    const temp = makeTempDir('hookloop-number-links-')
    cleanups.push(() => temp.cleanup())
    // The store as an older Hookloop left it: our attempt #1 and two requests carrying
    // `x-hookloop-attempt: 1` — a stranger's, captured first, and the attempt's own.
    const old = openDatabase({ file: join(temp.dir, 'hookloop.db') })
    const attempt = recordAttempt(old, Date.UTC(2026, 0, 1))
    const insert = old.prepare(
      `INSERT INTO requests (endpoint_id, received_at, method, path, headers_json, body, body_size, dedupe_key, attempt_id) VALUES (NULL, ?, 'POST', '/h/orders', ?, ?, ?, ?, ?)`,
    )
    const request = (eventId: string) => {
      const body = Buffer.from(JSON.stringify({ id: eventId }))
      const headers = JSON.stringify([['webhook-id', eventId], ['X-Hookloop-Attempt', String(attempt.id)]])
      return Number(insert.run(Date.UTC(2026, 0, 1), headers, body, body.length, eventId, attempt.id).lastInsertRowid)
    }
    const strangers = request('evt_stranger')
    const ours = request(attempt.eventId)
    old.close()

    const engine = await engineOnFolder(temp.dir)
    const { details } = readsOf(engine)
    const view = await deliveryView(engine, attempt.deliveryId)
    expect(view.row.marks.map((m) => m.id)).toEqual([attempt.id])
    // Which of the two was ours cannot be told from a number: neither is shown as the attempt's.
    expect(view.detail.attempts.map((a) => a.requestId)).toEqual([null])
    expect([(await details.requestDetail(strangers))?.attemptId, (await details.requestDetail(ours))?.attemptId]).toEqual([null, null])
    expect((await rowsWithRequests(engine)).filter((r) => r.row.kind === 'received').map((r) => r.row.eventId).sort()).toEqual([attempt.eventId, 'evt_stranger'].sort())
    await expectEachRequestInOneRow(engine)
  })
})
