// A sender in its own process, for the kill -9 test. `fresh` creates the subscription, publishes
// the events and starts delivering (the test kills it mid-way); `resume` reopens the same file,
// recovers and runs until nothing is left, then prints a summary line.
import { createRealClock } from '../../../electron/engine/clock'
import { createSender } from '../../../electron/engine/sender'
import { sign } from '../../../electron/engine/signatures'
import { openDatabase } from '../../../electron/engine/store'

const [file, url, mode, count, writer] = process.argv.slice(2)
if (!file || !url || (mode !== 'fresh' && mode !== 'resume')) {
  console.error('usage: crash-child FILE URL fresh|resume [COUNT] [inline|thread]')
  process.exit(2)
}
const db = openDatabase({ file })
const sender = createSender({ db, clock: createRealClock(), sign, concurrency: 16, writerThread: writer === 'thread' })
if (mode === 'fresh') {
  await sender.createSubscription({
    id: 'crash',
    target: { url },
    scheme: 'standard-webhooks',
    policy: { preset: 'custom', schedule: { kind: 'fixed', interval_ms: 20 }, max_attempts: 5, timeout_ms: 5_000 },
  })
  for (let i = 0; i < Number(count ?? 1000); i++) await sender.publish({ eventType: 'booking.created', payload: { i } })
  await sender.start()
  process.stdout.write('started\n')
} else {
  const { recovered } = await sender.start()
  await sender.settled()
  await sender.stop()
  db.close()
  process.stdout.write(`${JSON.stringify({ recovered })}\n`)
}
