// A sender in its own process, for bench:team and the claims tests
// (test/integration/sender/claims.test.ts on a data folder, team-store.test.ts on PostgreSQL):
// `seed` makes the subscription and publishes COUNT events without sending; `drain` sends from the
// same store beside other drain processes until every delivery in the store is final (taking over
// what a dead one left), then prints how many attempts it started. STORE is a SQLite file or a
// postgres:// URL (its data key in HOOKLOOP_SECRET_KEY).
import { createRealClock } from '../../electron/engine/clock'
import { createSender } from '../../electron/engine/sender'
import { sign } from '../../electron/engine/signatures'
import { openDatabase, openStore, parseStoreLocation, storeOfDatabase, type OpenedStore } from '../../electron/engine/store'

const [where, url, mode, count] = process.argv.slice(2)
if (!where || !url || (mode !== 'seed' && mode !== 'drain')) {
  console.error('usage: team-drain-process STORE URL seed|drain [COUNT]')
  process.exit(2)
}
const db = where.startsWith('postgres://') ? null : openDatabase({ file: where })
const opened: OpenedStore = db ? storeOfDatabase(db) : await openStore(parseStoreLocation(where), { notice: () => undefined })
const close = async () => {
  await opened.engine.close()
  db?.close()
}
// A short claim margin: the test kills a process and wants its deliveries back within a second.
const sender = createSender({ store: opened.engine, secrets: opened.secrets, clock: createRealClock(), sign, concurrency: 16, claimMarginMs: 300 })
if (mode === 'seed') {
  await sender.createSubscription({
    id: 'claims',
    target: { url },
    scheme: 'standard-webhooks',
    policy: { preset: 'custom', schedule: { kind: 'fixed', interval_ms: 20 }, max_attempts: 5, timeout_ms: 2_000 },
  })
  for (let i = 0; i < Number(count ?? 100); i++) await sender.publish({ eventType: 'booking.created', payload: { i } })
  await sender.stop()
  await close()
} else {
  let started = 0
  sender.on('attempt.started', () => void started++)
  await sender.start()
  process.stdout.write('started\n')
  const open = async () =>
    (await opened.engine.get<{ n: number }>("SELECT COUNT(*) AS n FROM deliveries WHERE status NOT IN ('succeeded', 'failed') OR in_flight = 1"))?.n ?? 0
  for (let i = 0; i < 30_000 && (await open()) > 0; i++) await new Promise((r) => setTimeout(r, 20))
  await sender.stop()
  await close()
  process.stdout.write(`${JSON.stringify({ started })}\n`)
}
