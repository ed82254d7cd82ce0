// Hostile benchmark, server under test: Hookloop's receiver as `hookloop listen` runs it (capture
// thread, a real SQLite file), one endpoint deduping by a body field with an event-type rule (so
// every body's JSON is looked into), one plain endpoint for the unrelated request. Run with
// --expose-gc. Says its port and default body limit when ready; answers the parent over IPC:
// 'gc' → heap after a full GC; 'stop' → peak RSS, the database's size (file + WAL) and what it stored.
import { statSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createRealClock } from '../../electron/engine/clock'
import { createReceiver } from '../../electron/engine/receiver'
import { openDatabase } from '../../electron/engine/store'
import { DEFAULT_BODY_LIMIT } from '../../shared/receiver'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')
const dir = mkdtempSync(join(tmpdir(), 'hookloop-hostile-'))
const file = join(dir, 'hookloop.db')
const db = openDatabase({ file })
// BENCH_BODY_BUDGET_MB: try another memory budget for bodies in flight (default: the receiver's).
const budgetMb = Number(process.env.BENCH_BODY_BUDGET_MB ?? 0)
const receiver = await createReceiver({ db, clock: createRealClock(), captureThread: true, ...(budgetMb > 0 ? { bodyBudgetBytes: budgetMb * 1024 * 1024 } : {}) })
const hostile = await receiver.endpoints.create({ slug: 'hostile', dedupe: 'pandoktorek-body' })
await receiver.rules.add(hostile.id, { matchers: [{ type: 'event-type', path: 'type', value: 'never.sent' }], steps: [{ type: 'reply', status: 500 }] })
await receiver.endpoints.create({ slug: 'ping' })

// How long the event loop was held at most (a blocked loop holds every request, whatever its size).
const loopDelay = monitorEventLoopDelay({ resolution: 10 })
loopDelay.enable()

const size = (path: string) => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}
const dbBytes = () => size(file) + size(`${file}-wal`)

function heapAfterGc(): number {
  gc!()
  gc!()
  return process.memoryUsage().heapUsed
}

process.on('message', (message: { op: string }) => {
  switch (message.op) {
    case 'gc': {
      // The loop's worst hold since the last 'gc' (read before this op's own synchronous flush and GC).
      const loopDelayMaxMs = loopDelay.max / 1e6
      receiver.requests.flush()
      process.send!({ heapAfterGc: heapAfterGc(), rss: process.memoryUsage.rss(), dbBytes: dbBytes(), loopDelayMaxMs })
      loopDelay.reset()
      return
    }
    case 'stop':
      receiver.requests.flush()
      void (async () => {
        // Columns a receiver without the marks does not have count as 0 (the bench also runs on older code).
        const columns = new Set((db.prepare('PRAGMA table_info(requests)').all() as { name: string }[]).map((c) => c.name))
        const count = (column: string) => (columns.has(column) ? `coalesce(sum(${column} IS NOT NULL), 0)` : '0')
        const stats = db.prepare(`SELECT count(*) AS rows, ${count('dedupe_key_mark')} AS digestKeys, ${count('refused_reason')} AS refused, ${count('not_inspected')} AS notInspected, coalesce(sum(response_status = 503), 0) AS answered503 FROM requests`).get() as Record<string, number>
        // The kernel's high-water mark of the process's resident memory (a sampler would miss the
        // peak inside a long synchronous parse).
        const peakRss = process.resourceUsage().maxRSS * 1024
        // Refusals whose client had the whole answer, and those a lingering close cut (a receiver
        // built before refusals lingered has no count).
        const ends = (receiver as { refusals?: () => { read: number; cut: number } }).refusals?.()
        const result = { peakRss, heapAfterGc: heapAfterGc(), dbBytes: dbBytes(), ...stats, ...(ends ? { refusalsRead: ends.read, refusalsCut: ends.cut } : {}) }
        await receiver.close()
        db.close()
        rmSync(dir, { recursive: true, force: true })
        process.send!(result)
        process.exit(0)
      })()
      return
    default:
      throw new Error(`unknown op ${message.op}`)
  }
})
// The default body limit of the tree this was built from: the attacker sizes its bodies by it.
process.send!({ port: receiver.port, bodyLimit: DEFAULT_BODY_LIMIT })
