// npm run bench:team — a team's store, measured; one JSON line at the end. Options: `--no-postgres`
// (the data folder's figures only), `--no-drain`, `--no-capture`, `--no-memory`, `--requests=N`
// (the memory's store size, default 1 000 000); BENCH_ROUNDS, BENCH_DURATION_S as bench:receiver.
// - The drain: 10 000 due deliveries drained by three sender processes on one store (each claims
//   a delivery before it sends it), once as they are and once with one process killed with kill -9
//   mid-way (the others take its claims over), beside one process draining them alone; every
//   request counted by a consumer of ours on loopback. Both store engines: a data folder, then a
//   PostgreSQL database (HOOKLOOP_TEST_POSTGRES's server, else an embedded one).
// - Capture rates of `hookloop serve` on either engine, two processes on one PostgreSQL against
//   one, accounts on against off (team-capture.ts).
// - The live lag between two processes: on a data folder, on PostgreSQL (team-live-lag.ts).
// - The engine's memory with a million requests in the store, on either engine (team-memory.ts).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '../support/postgres'
import { CONNECTIONS, DURATION_S, ROUNDS } from './load-rig'
import { captureRates } from './team-capture'
import { liveLag } from './team-live-lag'
import { memoryWith } from './team-memory'
import { freshStore, type StoreKind } from './team-stores'

const flag = (name: string) => process.argv.includes(`--${name}`)
const REQUESTS = Number(process.argv.find((a) => a.startsWith('--requests='))?.slice('--requests='.length) ?? 1_000_000)
const loads: number[] = [loadavg()[0] ?? 0]
const noteLoad = () => loads.push(loadavg()[0] ?? 0)
const EVENTS = Number(process.env.BENCH_TEAM_EVENTS ?? 10_000)
const here = dirname(fileURLToPath(import.meta.url))
const child = join(here, 'team-drain-process.mjs')

const byEvent = new Map<string, number>()
const server = createServer((req, res) => {
  const id = String(req.headers['webhook-id'])
  byEvent.set(id, (byEvent.get(id) ?? 0) + 1)
  req.resume()
  req.on('end', () => setTimeout(() => res.writeHead(200).end('ok'), 2))
})
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`

const exited = (c: ChildProcess) => new Promise<void>((r) => c.once('close', () => r()))
const run = (store: string, mode: string, n = '0') => spawn(process.execPath, [child, store, url, mode, n], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, HOOKLOOP_SECRET_KEY: secretKey } })
const firstLine = (c: ChildProcess) =>
  new Promise<void>((r) => {
    let out = ''
    c.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('\n')) r()
    })
  })

interface Drain { processes: number; killed: boolean; seconds: number; attempts_per_s: number; sent_twice: number; never_sent: number; interrupted: number; requests: number }

const TWICE_SQL = "SELECT COUNT(*) AS n FROM (SELECT delivery_id FROM attempts WHERE outcome != 'interrupted' GROUP BY delivery_id HAVING COUNT(*) > 1) AS twice"
const UNSENT_SQL = "SELECT COUNT(*) AS n FROM deliveries WHERE status != 'succeeded'"
const INTERRUPTED_SQL = "SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'interrupted'"

/** The team's PostgreSQL (a server HOOKLOOP_TEST_POSTGRES names, else an embedded one) and the data key its processes share. */
const postgres = flag('no-postgres') ? null : await startTestPostgres()
const secretKey = randomBytes(32).toString('base64')

async function drain(kind: StoreKind, processes: number, kill: boolean): Promise<Drain> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-team-'))
  try {
    const store = await freshStore(kind, dir, postgres)
    byEvent.clear()
    const seed = run(store.where, 'seed', String(EVENTS))
    await exited(seed)
    const started = performance.now()
    const drains = Array.from({ length: processes }, () => run(store.where, 'drain'))
    await Promise.all(drains.map(firstLine))
    if (kill) {
      while ([...byEvent.values()].length < EVENTS / 3) await new Promise((r) => setTimeout(r, 5))
      drains[0]!.kill('SIGKILL')
    }
    await Promise.all(drains.map(exited))
    const seconds = (performance.now() - started) / 1000
    const twice = await store.count(TWICE_SQL)
    const unsent = await store.count(UNSENT_SQL)
    const interrupted = await store.count(INTERRUPTED_SQL)
    const requests = [...byEvent.values()].reduce((a, b) => a + b, 0)
    // Never sent: a delivery no request reached the consumer for.
    const neverSent = Math.max(unsent, EVENTS - byEvent.size)
    return { processes, killed: kill, seconds: Number(seconds.toFixed(2)), attempts_per_s: Math.round(EVENTS / seconds), sent_twice: twice, never_sent: neverSent, interrupted, requests }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One process alone, three at once, three with one killed: on one store engine. */
async function drains(kind: StoreKind) {
  const one = await drain(kind, 1, false)
  const three = await drain(kind, 3, false)
  const killed = await drain(kind, 3, true)
  return { one, three, three_one_killed: killed, three_vs_one: Number((three.attempts_per_s / one.attempts_per_s).toFixed(3)) }
}

const sqlite = flag('no-drain') ? null : await drains('sqlite')
const team = postgres && sqlite ? await drains('postgres') : null
server.close()
noteLoad()
const capture = flag('no-capture') ? null : await captureRates(postgres)
noteLoad()
// 300 captures 20 ms apart: steady traffic, each seen on its own.
const LAG_CAPTURES = Number(process.env.BENCH_TEAM_LAG_CAPTURES ?? 300)
const lag = await liveLag('sqlite', LAG_CAPTURES, 20)
const lagPg = postgres ? await liveLag('postgres', LAG_CAPTURES, 20, postgres) : null
noteLoad()
const memory = postgres && !flag('no-memory') ? await memoryWith(REQUESTS, postgres) : null
noteLoad()
await postgres?.stop()

const row = (name: string, d: Drain) => `| ${name.padEnd(48)} | ${String(d.seconds).padStart(7)} | ${String(d.attempts_per_s).padStart(9)} | ${String(d.requests).padStart(8)} | ${String(d.sent_twice).padStart(10)} | ${String(d.never_sent).padStart(10)} | ${String(d.interrupted).padStart(11)} |`
const rows = (store: string, d: Awaited<ReturnType<typeof drains>>) => [row(`${store}: 1 process`, d.one), row(`${store}: 3 processes`, d.three), row(`${store}: 3 processes, one killed with kill -9`, d.three_one_killed)]
const counted = [...(sqlite ? [sqlite] : []), ...(team ? [team] : [])]
const sentTwice = counted.reduce((n, d) => n + d.three.sent_twice + d.three_one_killed.sent_twice, 0)
const neverSent = counted.reduce((n, d) => n + d.three.never_sent + d.three_one_killed.never_sent, 0)
const lagLine = (l: Awaited<ReturnType<typeof liveLag>>, what: string) => `Live lag, ${what}: ${l.seen} of ${l.captures} seen, p50 ${l.p50_ms} ms, p99 ${l.p99_ms} ms, max ${l.max_ms} ms`
process.stdout.write(
  [
    `Team benchmark: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}, load average ${loads.map((l) => l.toFixed(1)).join(' → ')}`,
    ...(sqlite
      ? [
          '',
          `Drain: ${EVENTS} due deliveries, a SQLite data folder${team ? ' and a PostgreSQL database' : ''}, sender processes of concurrency 16, a loopback consumer answering 200 after 2 ms`,
          '',
          `| ${'drain'.padEnd(48)} | ${'seconds'.padStart(7)} | ${'attempts/s'.padStart(9)} | ${'requests'.padStart(8)} | ${'sent twice'.padStart(10)} | ${'never sent'.padStart(10)} | ${'interrupted'.padStart(11)} |`,
          `|${'-'.repeat(50)}|${'-'.repeat(9)}|${'-'.repeat(11)}|${'-'.repeat(10)}|${'-'.repeat(12)}|${'-'.repeat(12)}|${'-'.repeat(13)}|`,
          ...rows('data folder', sqlite),
          ...(team ? rows('PostgreSQL', team) : []),
        ]
      : []),
    ...(capture
      ? [
          '',
          `Capture, requests answered 2xx per second: ${CONNECTIONS} connections in all, ${ROUNDS} rounds × ${DURATION_S} s per target (median; per round in brackets)`,
          ...Object.entries(capture.runs).map(([target, runs]) => `  ${target.padEnd(16)} ${String(capture.rps[target as keyof typeof capture.rps]).padStart(6)}  [${runs.map((r) => r.rps).join(' / ')}]`),
          `  PostgreSQL / data folder ${capture.pg_vs_sqlite} (goal ≥ 0.5); two serve on PostgreSQL / one ${capture.two_vs_one}, two bare / one ${capture.bare_two_vs_one}, of the limit ${capture.two_vs_one_of_limit} (goal ≥ 0.8); accounts on / off ${capture.auth_capture_ratio} (goal ≥ 0.95); ${capture.every_answer_stored ? 'every answer stored' : 'ANSWERS NOT STORED'}`,
        ]
      : []),
    '',
    lagLine(lag, 'a capture stored by `hookloop listen` → pushed to a client of `hookloop serve` on the same folder'),
    ...(lagPg ? [lagLine(lagPg, 'a capture stored by serve A → pushed to a client of serve B on one PostgreSQL')] : []),
    ...(memory ? ['', `Memory, serve's engine with ${memory.requests} requests in the store: data folder ${memory.rss_mib_sqlite} MiB, PostgreSQL ${memory.rss_mib_pg} MiB (${memory.rss_pg_vs_sqlite}); seeded in ${memory.seed_s} s, copied in ${memory.copy_s} s, ${memory.counted_pg} counted on PostgreSQL`] : []),
    '',
  ].join('\n') + '\n',
)
process.stdout.write(
  JSON.stringify({
    bench: 'team',
    pg_vs_sqlite: capture?.pg_vs_sqlite ?? null,
    two_vs_one: capture?.two_vs_one ?? null,
    two_vs_one_of_limit: capture?.two_vs_one_of_limit ?? null,
    bare_two_vs_one: capture?.bare_two_vs_one ?? null,
    auth_capture_ratio: capture?.auth_capture_ratio ?? null,
    capture_rps: capture?.rps ?? null,
    every_answer_stored: capture?.every_answer_stored ?? null,
    sent_twice: sentTwice,
    never_sent: neverSent,
    live_lag_p50_ms: lagPg?.p50_ms ?? null,
    live_lag_p99_ms: lagPg?.p99_ms ?? null,
    live_lag_postgres: lagPg,
    live_lag_sqlite: lag,
    rss_mib_pg: memory?.rss_mib_pg ?? null,
    rss_mib_sqlite: memory?.rss_mib_sqlite ?? null,
    rss_pg_vs_sqlite: memory?.rss_pg_vs_sqlite ?? null,
    memory,
    due_attempts: EVENTS,
    drain: { sqlite, postgres: team },
    three_vs_one: sqlite?.three_vs_one ?? null,
    three_vs_one_postgres: team?.three_vs_one ?? null,
    cores: cpus().length,
    load: loads.map((l) => Math.round(l * 10) / 10),
  }) + '\n',
)
const lagsSeen = [lag, ...(lagPg ? [lagPg] : [])].every((l) => l.seen === l.captures)
if (sentTwice + neverSent > 0 || !lagsSeen || capture?.every_answer_stored === false || (memory && memory.counted_pg !== memory.requests)) process.exitCode = 1
