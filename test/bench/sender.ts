// npm run bench:sender — the sender against the limit of its own HTTP client.
//  1. bare: 40 000 POSTs with undici dispatch() on the same Agent and concurrency, nothing else.
//  2. hookloop: 10 000 events under seed A's policy on a virtual clock to a receiver that fails
//     the first 3 attempts of each event: 40 000 attempts, each signed, recorded and scheduled,
//     with the attempt writes on the sender's writer thread (the figure reported) and, for
//     comparison, inline on the event loop.
//  3. scheduler: 1 000 000 pending deliveries in the store and the heap; memory, schedule/s, pop/s.
// The receiver runs in its own process. Nothing here is asserted: figures are printed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createScheduler } from '../../electron/engine/scheduler'
import { createSqliteEngine, openDatabase, scheduledOnClock } from '../../electron/engine/store'
import { createDeliveryStatements, createDeliveryStore } from '../../electron/engine/store/deliveries'

import { bare, CONCURRENCY, EVENTS, hookloop, startReceiver, type TimedHooks } from './sender-rig'

const PENDING = 1_000_000

async function scheduler(): Promise<{ rssMb: number; rssBeforeMb: number; schedulePerSecond: number; popPerSecond: number; memory: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-scheduler-'))
  const db = openDatabase({ file: join(dir, 'hookloop.db') })
  db.prepare(`INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 's', 'http://127.0.0.1:1/', 'standard-webhooks', '{}', 0, 0)`).run()
  db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES ('e', 't', x'7b7d', 0)`).run()
  const deliveries = createDeliveryStatements(db)
  let now = 0
  const clock = { mode: 'virtual' as const, now: () => now, setTimer: () => ({ cancel() {} }), sleep: async () => {} }
  const sched = createScheduler({ clock, deliveries: scheduledOnClock(createDeliveryStore(createSqliteEngine(db, { closeDatabase: false })), null), onDue: () => {}, horizonMs: 3_600_000 })
  sched.start()
  await sched.refilled()
  global.gc?.()
  const rssBefore = process.memoryUsage().rss
  // Durable scheduling: the row (with next_attempt_at) is written, then mirrored in the heap.
  const insertBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = (i * 7919) % 1_800_000 // spread over 30 min, not in insertion order
      const id = deliveries.insert({ event_id: 'e', subscription_id: 's', next_attempt_at: at, faults_json: null, created_at: 0, simulation_id: null, created_wall_at: 0 })
      sched.schedule(id, at)
    }
  })
  const started = performance.now()
  for (let i = 0; i < PENDING; i += 10_000) insertBatch(i, Math.min(PENDING, i + 10_000))
  const scheduleSeconds = (performance.now() - started) / 1000
  const rss = process.memoryUsage().rss
  const memory = sched.memorySize()
  now = 3_600_000
  const popStart = performance.now()
  let popped = 0
  let last = -1
  for (;;) {
    const due = sched.takeDue(1_000)
    // The heap ran dry before the window's end: the rest is read from the store in the background.
    if (due.length === 0 && sched.refilling()) {
      await sched.refilled()
      continue
    }
    for (const d of due) {
      if (d.next_attempt_at < last) throw new Error('scheduler popped out of order')
      last = d.next_attempt_at
    }
    popped += due.length
    if (due.length === 0) break
  }
  const popSeconds = (performance.now() - popStart) / 1000
  if (popped !== PENDING) throw new Error(`popped ${popped} of ${PENDING}`)
  sched.stop()
  db.close()
  rmSync(dir, { recursive: true, force: true })
  return { rssMb: rss / 2 ** 20, rssBeforeMb: rssBefore / 2 ** 20, schedulePerSecond: PENDING / scheduleSeconds, popPerSecond: PENDING / popSeconds, memory }
}

async function profiler(file: string): Promise<TimedHooks> {
  const { Session } = await import('node:inspector/promises')
  const { writeFileSync } = await import('node:fs')
  const session = new Session()
  session.connect()
  return {
    async begin() {
      await session.post('Profiler.enable')
      await session.post('Profiler.setSamplingInterval', { interval: 200 })
      await session.post('Profiler.start')
    },
    async end() {
      const { profile } = await session.post('Profiler.stop')
      writeFileSync(file, JSON.stringify(profile))
      session.disconnect()
    },
  }
}

// The machine is shared and noisy: bare and hookloop runs alternate, and each side's best round
// counts (the least disturbed one).
const ROUNDS = Number(process.env.ROUNDS ?? 3)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

async function main(): Promise<void> {
  // `--only=hookloop`: the sender side alone, twice (warm-up, then measured). With
  // `--profile=FILE`, the measured round's main thread is CPU-profiled (the timed section only,
  // publishing excluded) into FILE (.cpuprofile, for Chrome DevTools).
  if (process.argv.includes('--only=hookloop')) {
    const receiver = await startReceiver()
    const url = `http://127.0.0.1:${receiver.port}/hook`
    const profileTo = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length)
    try {
      for (let round = 0; round < 2; round++) {
        await receiver.reset()
        const run = await hookloop(url, process.env.SENDER_WRITER !== 'inline', round === 1 && profileTo ? await profiler(profileTo) : undefined)
        console.log(`hookloop attempts/s ${run.perSecond.toFixed(0)}, CPU µs per attempt ${run.cpuUs.toFixed(0)}`)
      }
    } finally {
      receiver.stop()
    }
    return
  }
  // The scheduler part first, in a fresh process, so its memory figure is not mixed with the
  // HTTP runs' garbage.
  const sched = await scheduler()
  global.gc?.()
  const receiver = await startReceiver()
  const url = `http://127.0.0.1:${receiver.port}/hook`
  try {
    await bare(url) // warm-up: connections, JIT
    const bareRuns: Array<{ perSecond: number; cpuUs: number }> = []
    const hookRuns: Array<Awaited<ReturnType<typeof hookloop>>> = []
    const inlineRuns: Array<Awaited<ReturnType<typeof hookloop>>> = []
    for (let round = 0; round < ROUNDS; round++) {
      await receiver.reset()
      bareRuns.push(await bare(url))
      await receiver.reset()
      hookRuns.push(await hookloop(url, true))
      await receiver.reset()
      inlineRuns.push(await hookloop(url, false))
    }
    receiver.stop()
    const best = <T extends { perSecond: number }>(runs: T[]) => runs.reduce((a, b) => (b.perSecond > a.perSecond ? b : a))
    const bareBest = best(bareRuns)
    const hook = best(hookRuns)
    const inline = best(inlineRuns)
    const ratio = hook.perSecond / bareBest.perSecond
    const list = (runs: Array<{ perSecond: number }>) => runs.map((r) => r.perSecond.toFixed(0)).join(' / ')
    const rows: Array<[string, string]> = [
      [`bare undici POSTs/s (40 000, concurrency ${CONCURRENCY}), best of`, `${bareBest.perSecond.toFixed(0)}  (${list(bareRuns)})`],
      [`hookloop attempts/s (${hook.attempts} attempts of ${EVENTS} events), best of`, `${hook.perSecond.toFixed(0)}  (${list(hookRuns)})`],
      ['ratio hookloop / bare (best / best)', ratio.toFixed(2)],
      ['  ratio paired round by round (median first)', median(hookRuns.map((h, i) => h.perSecond / (bareRuns[i] as { perSecond: number }).perSecond)).toFixed(2) + ' : ' + hookRuns.map((h, i) => (h.perSecond / (bareRuns[i] as { perSecond: number }).perSecond).toFixed(2)).join(' / ')],
      [`  same, attempt writes inline (on the event loop), best of`, `${inline.perSecond.toFixed(0)}  (${list(inlineRuns)})`],
      ['ratio inline / bare (best / best)', (inline.perSecond / bareBest.perSecond).toFixed(2)],
      ['  ratio paired round by round (median first)', median(inlineRuns.map((h, i) => h.perSecond / (bareRuns[i] as { perSecond: number }).perSecond)).toFixed(2) + ' : ' + inlineRuns.map((h, i) => (h.perSecond / (bareRuns[i] as { perSecond: number }).perSecond).toFixed(2)).join(' / ')],
      ['CPU µs per request (all threads): bare / hookloop / inline', `${bareBest.cpuUs.toFixed(0)} / ${hook.cpuUs.toFixed(0)} / ${inline.cpuUs.toFixed(0)}`],
      [`publish events/s (${EVENTS}, not in the ratio)`, hook.publishPerSecond.toFixed(0)],
      ['scheduler: pending deliveries', String(PENDING)],
      ['scheduler: entries in memory', String(sched.memory)],
      ['scheduler: process rss MB before / with 1M pending', `${sched.rssBeforeMb.toFixed(0)} / ${sched.rssMb.toFixed(0)}`],
      ['scheduler: schedule/s (store row + heap)', sched.schedulePerSecond.toFixed(0)],
      ['scheduler: pop/s', sched.popPerSecond.toFixed(0)],
    ]
    const width = Math.max(...rows.map(([k]) => k.length))
    for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
    console.log(
      JSON.stringify({
        bench: 'sender',
        attempts_per_s: { bare: Math.round(bareBest.perSecond), hookloop: Math.round(hook.perSecond) },
        ratio_vs_bare: Number(ratio.toFixed(3)),
        // CPU µs per attempt in all threads (process.cpuUsage), of the same best rounds: issue 33 asks for ≤ 2.5× bare.
        cpu_us: { hookloop: Math.round(hook.cpuUs), bare: Math.round(bareBest.cpuUs) },
        scheduler: { pending: PENDING, rss_mb: Math.round(sched.rssMb), schedule_per_s: Math.round(sched.schedulePerSecond), pop_per_s: Math.round(sched.popPerSecond) },
      }),
    )
  } finally {
    receiver.stop()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
