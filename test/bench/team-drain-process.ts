// A sender in its own process, for bench:team and the claims test
// (test/integration/sender/claims.test.ts): `seed` makes the subscription and publishes
// COUNT events without sending; `drain` sends from the same file beside other drain processes
// until every delivery in the store is final (taking over what a dead one left), then prints
// how many attempts it started.
import { createRealClock } from '../../electron/engine/clock'
import { createSender } from '../../electron/engine/sender'
import { sign } from '../../electron/engine/signatures'
import { openDatabase } from '../../electron/engine/store'

const [file, url, mode, count] = process.argv.slice(2)
if (!file || !url || (mode !== 'seed' && mode !== 'drain')) {
  console.error('usage: team-drain-process FILE URL seed|drain [COUNT]')
  process.exit(2)
}
const db = openDatabase({ file })
// A short claim margin: the test kills a process and wants its deliveries back within a second.
const sender = createSender({ db, clock: createRealClock(), sign, concurrency: 16, claimMarginMs: 300 })
if (mode === 'seed') {
  await sender.createSubscription({
    id: 'claims',
    target: { url },
    scheme: 'standard-webhooks',
    policy: { preset: 'custom', schedule: { kind: 'fixed', interval_ms: 20 }, max_attempts: 5, timeout_ms: 2_000 },
  })
  for (let i = 0; i < Number(count ?? 100); i++) await sender.publish({ eventType: 'booking.created', payload: { i } })
  await sender.stop()
  db.close()
} else {
  let started = 0
  sender.on('attempt.started', () => void started++)
  await sender.start()
  process.stdout.write('started\n')
  const open = db.prepare("SELECT COUNT(*) FROM deliveries WHERE status NOT IN ('succeeded', 'failed') OR in_flight = 1").pluck()
  for (let i = 0; i < 30_000 && (open.get() as number) > 0; i++) await new Promise((r) => setTimeout(r, 20))
  await sender.stop()
  db.close()
  process.stdout.write(`${JSON.stringify({ started })}\n`)
}
