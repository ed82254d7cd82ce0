// npm run bench:crash — the receiver's promise at full load: `hookloop listen` (the build, as a
// user runs it) takes requests from 32 keep-alive connections and is killed with SIGKILL after
// 1, 2 and 3 s (CRASH_KILL_AFTER_MS, comma-separated), on a data folder and on a team's
// PostgreSQL (embedded, or HOOKLOOP_TEST_POSTGRES); after each kill the store is read and every
// request answered 2xx must be in it, once (test/support/crash-load.ts). Prints a table and one JSON
// line; exits 1 when a request answered was lost or stored twice. Not a timing: the figures are
// counts, the rate only says how hard the receiver was pushed.
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { judgeCrash, loadUntilKilled } from '../support/crash-load'
import { startListen } from '../support/listen-cli'
import { startTestPostgres } from '../support/postgres'
import { makeTempDir } from '../support/temp-dir'

const CONNECTIONS = 32
const KILL_AFTER_MS = (process.env.CRASH_KILL_AFTER_MS ?? '1000,2000,3000').split(',').map(Number)

interface Round {
  store: 'sqlite' | 'postgres'
  killAfterMs: number
  answered: number
  answeredPerS: number
  lost: number
  storedTwice: number
  storedUnanswered: number
  failedBefore: number
}

const temp = makeTempDir('hookloop-bench-crash-')
process.env.HOOKLOOP_SECRET_KEY_FILE = join(temp.dir, 'team.key')
delete process.env.HOOKLOOP_STORE
delete process.env.HOOKLOOP_SECRET_KEY
const postgres = await startTestPostgres()
const load: number[] = [loadavg()[0] ?? 0]
const rounds: Round[] = []
try {
  for (const killAfterMs of KILL_AFTER_MS) {
    for (const store of ['sqlite', 'postgres'] as const) {
      const location = store === 'sqlite' ? join(temp.dir, `folder-${killAfterMs}`) : await postgres.freshDatabase()
      const listen = await startListen(store === 'sqlite' ? ['--data', location] : ['--store', location])
      const crash = await loadUntilKilled({ port: listen.port, connections: CONNECTIONS, killWhen: (_answered, ms) => ms >= killAfterMs, kill: () => listen.kill('SIGKILL') })
      await listen.exited
      const verdict = await judgeCrash(location, crash)
      rounds.push({
        store,
        killAfterMs,
        answered: verdict.answered,
        answeredPerS: Math.round(verdict.answered / (crash.loadMs / 1000)),
        lost: verdict.lost.length,
        storedTwice: verdict.storedTwice,
        storedUnanswered: verdict.storedUnanswered,
        failedBefore: crash.failedBefore,
      })
    }
  }
} finally {
  await postgres.stop()
  temp.cleanup()
}
load.push(loadavg()[0] ?? 0)

type Counted = 'answered' | 'lost' | 'storedTwice' | 'storedUnanswered' | 'failedBefore'
const total = (key: Counted, store?: Round['store']) => rounds.filter((r) => store === undefined || r.store === store).reduce((sum, r) => sum + r[key], 0)
console.log(`Crash benchmark: hookloop listen killed with SIGKILL under ${CONNECTIONS} connections; ${cpus().length} CPUs, Node ${process.version}, load average ${load.map((l) => l.toFixed(1)).join(' → ')}`)
console.log('| store | killed after | answered 2xx | answered/s | lost | stored twice | stored, not answered |')
console.log('|---|---|---|---|---|---|---|')
for (const r of rounds) console.log(`| ${r.store} | ${r.killAfterMs} ms | ${r.answered} | ${r.answeredPerS} | ${r.lost} | ${r.storedTwice} | ${r.storedUnanswered} |`)
const stores = Object.fromEntries(
  (['sqlite', 'postgres'] as const).map((store) => [store, { rounds: rounds.filter((r) => r.store === store).length, answered: total('answered', store), lost: total('lost', store), stored_twice: total('storedTwice', store), stored_unanswered: total('storedUnanswered', store) }]),
)
const lost = total('lost')
const twice = total('storedTwice')
const failed = total('failedBefore')
console.log(JSON.stringify({ bench: 'crash', connections: CONNECTIONS, kill_after_ms: KILL_AFTER_MS, stores, lost, stored_twice: twice, failed_before_kill: failed }))
if (lost > 0 || twice > 0 || failed > 0) process.exitCode = 1
