import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../shared/contract'
import { createEngine } from '../../../electron/engine/engine'
import { watchTimeline, type TimelineWatch, type TimelineWatchOptions } from '../../../electron/engine/host/timeline-watch'
import { createTimelineViews } from '../../../electron/engine/host/timeline-views'
import { createEngineWriter, createSqliteEngine, INSERT_REQUEST_SQL, openDatabase, openStore, parseStoreLocation, postgresChangeFeed, sqliteChangeFeed, UPDATE_OUTCOME_SQL } from '../../../electron/engine/store'
import { makeTempDir } from '../../support/temp-dir'
import { usePostgres } from '../../support/use-postgres'

// The timeline watch over a real SQLite file and a real PostgreSQL. On a folder the engine's own
// writes are pushed to it (its write statements name their tables): with a poll interval of an hour,
// rows still arrive; writes from another process are not pushed: they show as a new data_version,
// which the feed polls for. On a team store another process's commits are heard by LISTEN/NOTIFY.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const NEVER = 3_600_000
const postgres = usePostgres()
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** Every row the watch publishes, and a wait for the first one that satisfies `test`. */
/** What another process's sender writes for one event: its subscription, the event and a pending delivery. */
const pendingDelivery = (eventId: string) =>
  `INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('other', 'other', 'http://127.0.0.1:9/', 'standard-webhooks', '{}', 1, 1);
   INSERT INTO events (id, event_type, payload, created_at) VALUES ('${eventId}', 'order.paid', X'7B7D', 2);
   INSERT INTO deliveries (event_id, subscription_id, status, created_at, updated_at) VALUES ('${eventId}', 'other', 'pending', 2, 2);`

function collect() {
  const rows: TimelineRow[] = []
  const waiters: { test: (row: TimelineRow) => boolean; resolve: (row: TimelineRow) => void }[] = []
  return {
    rows,
    onRows(batch: TimelineRow[]) {
      rows.push(...batch)
      for (const row of batch) {
        for (const w of waiters.filter((w) => w.test(row))) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(row)
        }
      }
    },
    next(test: (row: TimelineRow) => boolean): Promise<TimelineRow> {
      const seen = rows.find(test)
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ test, resolve }))
    },
  }
}

/** A data folder and a watch on it, polling for other writers every 20 ms; closed after the test. */
async function watchedFolder(options: Pick<TimelineWatchOptions, 'watched'> & { onDeliveriesSettled?: () => void } = {}) {
  const temp = makeTempDir('hookloop-timeline-watch-')
  cleanups.push(() => temp.cleanup())
  const file = join(temp.dir, 'hookloop.db')
  const db = openDatabase({ file })
  cleanups.push(() => void db.close())
  const seen = collect()
  const changes = sqliteChangeFeed(db, 20)
  cleanups.push(() => changes.close())
  const store = createSqliteEngine(db, { closeDatabase: false })
  const watch = await watchTimeline({ engine: store, changes, timeline: createTimelineViews(store), pushGapMs: 20, onRows: seen.onRows, onDeliveriesSettled: options.onDeliveriesSettled ?? (() => {}), ...(options.watched ? { watched: options.watched } : {}) })
  cleanups.push(() => watch.stop())
  return { file, seen }
}

/** Runs SQL against the file from another process (its own connection), as another Hookloop would. */
async function writeFromAnotherProcess(file: string, sql: string): Promise<void> {
  const script = `const Database = require('better-sqlite3'); const db = new Database(${JSON.stringify(file)}); db.pragma('busy_timeout = 5000'); db.exec(${JSON.stringify(sql)}); db.close()`
  const child = spawn(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`the writer process failed (${code}): ${stderr}`)
}

describe('timeline watch', () => {
  it("pushes the engine's own writes: a delivery is seen created and settled with no poll", async () => {
    const temp = makeTempDir('hookloop-timeline-watch-')
    cleanups.push(() => temp.cleanup())
    const engine = await createEngine({ dataDir: temp.dir, clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
    cleanups.push(() => engine.close())
    await engine.putEndpoint({ slug: 'loop', scheme: 'standard-webhooks', secrets: [SECRET], rules: [] })
    const subscription = await engine.putSubscription({ name: 'loop', target: { endpoint: 'loop' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'github' })

    // Not wired to the engine's events, and polling once an hour: only the store's push can tell it.
    const seen = collect()
    let settled = 0
    const changes = sqliteChangeFeed(engine.db, NEVER)
    cleanups.push(() => changes.close())
    const store = createSqliteEngine(engine.db, { closeDatabase: false })
    const watch: TimelineWatch = await watchTimeline({
      engine: store,
      changes,
      timeline: createTimelineViews(store),
      pushGapMs: 0,
      onRows: seen.onRows,
      onDeliveriesSettled: () => settled++,
    })
    cleanups.push(() => watch.stop())

    const sent = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'booking.created', payload: { n: 1 } })
    const [deliveryId] = sent.deliveryIds
    const created = await seen.next((row) => row.deliveryId === deliveryId)
    expect(created).toMatchObject({ kind: 'delivery', eventId: sent.eventId, eventType: 'booking.created', subscriptionId: subscription.id })

    // The attempt's rows are committed by the sender's group-commit writer on the engine's connection.
    const done = await seen.next((row) => row.deliveryId === deliveryId && row.status === 'succeeded')
    expect(done.attempts).toBe(1)
    expect(done.marks).toHaveLength(1)
    expect(done.marks[0]).toMatchObject({ kind: 'attempt', tone: 'ok', label: '200' })
    expect(settled).toBeGreaterThan(0)
  })

  it('polls for writers in other processes: their deliveries, updates and requests still arrive', async () => {
    const { file, seen } = await watchedFolder()

    const eventId = '7a0c3f4e-9b1d-4c2a-8e5f-0d6b7a8c9e1f'
    await writeFromAnotherProcess(
      file,
      `BEGIN;
       ${pendingDelivery(eventId)}
       COMMIT;`,
    )
    const pending = await seen.next((row) => row.eventId === eventId)
    expect(pending).toMatchObject({ kind: 'delivery', status: 'pending', eventType: 'order.paid', subscriptionId: 'other', attempts: 0 })

    await writeFromAnotherProcess(file, `UPDATE deliveries SET status = 'failed', attempts = 1, last_status_code = 410, updated_at = 3 WHERE event_id = '${eventId}'`)
    const failed = await seen.next((row) => row.eventId === eventId && row.status === 'failed')
    expect(failed).toMatchObject({ deliveryId: pending.deliveryId, lastStatusCode: 410, attempts: 1 })

    await writeFromAnotherProcess(
      file,
      `INSERT INTO requests (id, received_at, method, path, headers_json, body_size, dedupe_key, response_status, response_ms)
       VALUES (1, 4, 'POST', '/h/elsewhere', '[]', 0, 'evt_1', 202, 1.5)`,
    )
    const received = await seen.next((row) => row.kind === 'received')
    expect(received).toMatchObject({ eventId: 'evt_1', status: 'received', endpointId: null, attempts: 1, lastStatusCode: 202 })
  })

  it('reads no request while nobody watches, then pushes only what is committed once someone does', async () => {
    let watching = false
    let read: () => void = () => {}
    const readOnce = new Promise<void>((resolve) => (read = resolve))
    const { file, seen } = await watchedFolder({ onDeliveriesSettled: () => read(), watched: () => watching })
    const capture = (id: number, key: string) =>
      `INSERT INTO requests (id, received_at, method, path, headers_json, body_size, dedupe_key, response_status, response_ms) VALUES (${id}, 4, 'POST', '/h/elsewhere', '[]', 0, '${key}', 202, 1.5);`

    // Unwatched: a capture and a delivery in one commit, so the read that tells of the delivery
    // (deliveries are followed whoever watches: the metrics) has passed the capture too.
    await writeFromAnotherProcess(
      file,
      `BEGIN;
       ${pendingDelivery('evt_x')}
       ${capture(1, 'evt_unwatched')}
       COMMIT;`,
    )
    await readOnce
    watching = true
    await writeFromAnotherProcess(file, capture(2, 'evt_watched'))
    const pushed = await seen.next((row) => row.kind === 'received')
    expect(pushed).toMatchObject({ eventId: 'evt_watched' })
    expect(seen.rows.filter((row) => row.kind === 'received').map((row) => row.eventId)).toEqual(['evt_watched'])
  })

  it("hears another process's commits to a team's PostgreSQL, with nothing polled: a capture, then its answer", async () => {
    const url = await postgres.freshDatabase()
    const temp = makeTempDir('hookloop-timeline-watch-')
    cleanups.push(() => temp.cleanup())
    const open = () => openStore(parseStoreLocation(url), { notice: () => undefined, postgresKey: { file: join(temp.dir, 'team.key') } })
    // The watching process: its own connection for reads, and one that LISTENs.
    const reader = await open()
    cleanups.push(() => reader.engine.close())
    const changes = await postgresChangeFeed(url)
    cleanups.push(() => changes.close())
    const seen = collect()
    const watch = await watchTimeline({ engine: reader.engine, changes, timeline: createTimelineViews(reader.engine), pushGapMs: 0, onRows: seen.onRows, onDeliveriesSettled: () => {} })
    cleanups.push(() => watch.stop())

    // The capturing process: the receiver's own statements through the group-commit writer.
    const writerStore = await open()
    cleanups.push(() => writerStore.engine.close())
    const writer = createEngineWriter(writerStore.engine, { insert: INSERT_REQUEST_SQL, outcome: UPDATE_OUTCOME_SQL })
    cleanups.push(() => writer.close())
    const now = Date.now()
    await writer.write([
      [
        'insert',
        {
          id: 41, endpoint_id: null, received_at: now, method: 'POST', path: '/h/team', query: '', http_version: '1.1', headers_json: '[]', body: Buffer.from('{}'), body_size: 2,
          body_truncated: 0, remote_address: '127.0.0.1', verify_valid: null, verify_reason: null, verify_json: null, dedupe_key: 'evt_team', duplicate_of: null, duplicate_number: 1,
          rule_id: null, fault_json: null, response_status: null, response_headers_json: null, response_body: null, response_ms: null, attempt_id: null, dedupe_key_mark: null,
          dedupe_key_bytes: null, not_inspected: 0, refused_reason: null, stored_at: now,
        },
      ],
    ])
    const waiting = await seen.next((row) => row.eventId === 'evt_team')
    expect(waiting).toMatchObject({ kind: 'received', endpointId: null, attempts: 1, lastStatusCode: null })

    await writer.write([['outcome', { id: 41, fault_json: null, response_status: 202, response_headers_json: '[]', response_body: Buffer.from('ok'), response_ms: 2 }]])
    const answered = await seen.next((row) => row.eventId === 'evt_team' && row.lastStatusCode === 202)
    expect(answered).toMatchObject({ kind: 'received', status: 'received', attempts: 1 })
  }, 60_000)
})
