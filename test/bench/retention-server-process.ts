// Retention benchmark, server under test: Hookloop's receiver as `hookloop listen` runs it
// (capture thread, verify, dedupe, SQLite) on a store pre-filled with old captures. Targets:
// `capture` only; `steady`: retention with a size limit at the pre-filled store's size, so each
// pass (one a second) deletes what came in since the last, the steady state of a full store;
// `backlog`: a limit at half the pre-filled store, so a 30 000-row backlog is pruned during the
// load (freed pages reused, the excess given back at the end of each pass); `backlog-give-back-all`:
// the same giving every freed page back as the batches go (what Clear history does).
// Prints {"port":…} when ready; on SIGTERM prints what it stored and pruned.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRealClock } from '../../electron/engine/clock'
import { createReceiver } from '../../electron/engine/receiver'
import { createRetention } from '../../electron/engine/retention/retention'
import { createSqliteEngine, openDatabase } from '../../electron/engine/store'

const target = process.argv[2] ?? 'capture'
const secret = process.argv[3] ?? ''
const PREFILL_ROWS = Number(process.env.BENCH_PREFILL_ROWS ?? 60_000)
const PREFILL_BODY = 2048

const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-retention-'))
const file = join(dir, 'hookloop.db')
const db = openDatabase({ file, notice: () => {} })
// Old captures, as a store that ran for weeks holds them (bodies of 2 KB, a dedupe key each).
const insert = db.prepare(
  `INSERT INTO requests (endpoint_id, received_at, method, path, headers_json, body, body_size, dedupe_key, duplicate_number, response_status)
   VALUES (NULL, ?, 'POST', '/h/old', '[["content-type","application/json"]]', ?, ?, ?, 1, 200)`,
)
const body = randomBytes(PREFILL_BODY / 2).toString('hex')
db.transaction(() => {
  for (let i = 0; i < PREFILL_ROWS; i++) insert.run(Date.now() - 40 * 86_400_000 + i, Buffer.from(body), PREFILL_BODY, `old_${i}`)
})()
db.pragma('wal_checkpoint(TRUNCATE)')
const prefilledBytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number)
const usedAfterPrefill = ((db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number)) * (db.pragma('page_size', { simple: true }) as number)

const clock = createRealClock()
const receiver = await createReceiver({ db, clock, captureThread: true })
await receiver.endpoints.create({ slug: 'bench', scheme: 'standard-webhooks', secrets: [secret], dedupe: 'standard-webhooks' })

let pruning: Promise<void> = Promise.resolve()
let stopped = false
let pruned = 0
let passes = 0
let reclaimedPages = 0
const retention = createRetention({ engine: createSqliteEngine(db, { closeDatabase: false }), clock, timers: clock, capture: receiver.requests, firstPassMs: 2 ** 31 - 1, batch: { rows: Number(process.env.BENCH_BATCH_ROWS ?? 500), bytes: Number(process.env.BENCH_BATCH_BYTES ?? 4_000_000) }, giveBack: target === 'backlog-give-back-all' ? 'all' : 'excess' })
if (target !== 'capture') {
  const limit = Math.floor(target === 'steady' ? usedAfterPrefill : usedAfterPrefill / 2)
  pruning = (async () => {
    while (!stopped) {
      const result = await retention.prune({ maxBytes: limit })
      pruned += result.deleted
      reclaimedPages += result.reclaimedPages
      passes++
      // The schedule runs a pass a minute; here one a second (passes still overlap the whole load).
      await clock.sleep(1000)
    }
  })()
}

const cpuAtReady = process.cpuUsage()
process.stdout.write(JSON.stringify({ port: receiver.port }) + '\n')
process.once('SIGTERM', () => {
  const cpu = process.cpuUsage(cpuAtReady)
  stopped = true
  void (async () => {
    await pruning
    await retention.stop()
    await receiver.close()
    const stats = db.prepare("SELECT count(*) AS rows, coalesce(sum(verify_valid), 0) AS valid FROM requests WHERE path = '/h/bench'").get() as Record<string, number>
    const fileBytes = statSync(file).size
    db.close()
    rmSync(dir, { recursive: true, force: true })
    process.stdout.write(JSON.stringify({ stopped: true, cpuUs: cpu.user + cpu.system, ...stats, pruned, passes, reclaimedPages, prefilledBytes, fileBytes }) + '\n')
    process.exit(0)
  })()
})
