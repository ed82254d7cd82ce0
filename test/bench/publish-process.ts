// One process of bench:publish (publish.ts): LOOPS loops of EVENTS `await sender.publish()` calls, each
// on a fresh store in a temp file, one subscription, a virtual clock and the writer thread on, as
// bench:sender publishes before it sends. Prints one JSON line: events/s of each loop.
// It imports only what every tree compared since schema 6 has (openDatabase, createSender …), so
// publish-run.mjs bundles this same file inside an older tree to measure that tree.
// PUBLISH_SQL (publish-run.mjs --variant) runs on each fresh store before its loop: what an index
// or a pragma costs is measured by running this tree with and without it in one sitting.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createVirtualClock } from '../../electron/engine/clock'
import { createSender } from '../../electron/engine/sender'
import { sign } from '../../electron/engine/signatures'
import { openDatabase } from '../../electron/engine/store'

const EVENTS = Number(process.env.PUBLISH_EVENTS ?? 10_000)
const LOOPS = Number(process.env.PUBLISH_LOOPS ?? 3)

async function loop(): Promise<{ rate: number; cpuUs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-publish-'))
  const db = openDatabase({ file: join(dir, 'hookloop.db') })
  if (process.env.PUBLISH_SQL) db.exec(process.env.PUBLISH_SQL)
  const clock = createVirtualClock({ start: 0 })
  const sender = createSender({ db, clock, sign, concurrency: 64, writerThread: true })
  // Never sent: the sender is not started, so nothing listens at this URL.
  await sender.createSubscription({ id: 'bench', target: { url: 'http://127.0.0.1:9/hook' }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < EVENTS; i++) await sender.publish({ eventType: 'booking.created', payload: { n: i } })
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  const made = db.prepare('SELECT COUNT(*) FROM deliveries').pluck().get() as number
  if (made !== EVENTS) throw new Error(`expected ${EVENTS} deliveries, found ${made}`)
  await sender.stop()
  clock.dispose()
  db.close()
  rmSync(dir, { recursive: true, force: true })
  return { rate: EVENTS / seconds, cpuUs: (used.user + used.system) / EVENTS }
}

const loops: Array<{ rate: number; cpuUs: number }> = []
for (let i = 0; i < LOOPS; i++) loops.push(await loop())
process.stdout.write(JSON.stringify({ rates: loops.map((l) => l.rate), cpuUs: loops.map((l) => l.cpuUs) }) + '\n')
