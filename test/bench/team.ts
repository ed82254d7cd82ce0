// npm run bench:team — a team's store, measured. 10 000 due deliveries drained by three sender
// processes on one store (each claims a delivery before it sends it), once as they are and once
// with one process killed with kill -9 mid-way (the others take its claims over), beside one
// process draining them alone; every request counted by a consumer of ours on loopback. Both store
// engines: a data folder, then a PostgreSQL database (HOOKLOOP_TEST_POSTGRES's server, else an
// embedded one; `--no-postgres` skips it). And the live lag between two processes on one data
// folder: `hookloop listen` captures, the app of `hookloop serve` shows it (team-live-lag.ts).
// Figures that need `serve` on PostgreSQL (capture rate against SQLite, two processes against
// one, live lag between processes on PostgreSQL) are null until it runs there (docs/team.md).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { startTestPostgres } from '../support/postgres'
import { liveLag } from './team-live-lag'

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
type StoreKind = 'sqlite' | 'postgres'

const TWICE_SQL = "SELECT COUNT(*) AS n FROM (SELECT delivery_id FROM attempts WHERE outcome != 'interrupted' GROUP BY delivery_id HAVING COUNT(*) > 1) AS twice"
const UNSENT_SQL = "SELECT COUNT(*) AS n FROM deliveries WHERE status != 'succeeded'"
const INTERRUPTED_SQL = "SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'interrupted'"

/** The team's PostgreSQL (a server HOOKLOOP_TEST_POSTGRES names, else an embedded one) and the data key its processes share. */
const postgres = process.argv.includes('--no-postgres') ? null : await startTestPostgres()
const secretKey = randomBytes(32).toString('base64')

/** A fresh store of the kind, and how its counts are read once every drain has exited. */
async function freshStore(kind: StoreKind, dir: string): Promise<{ where: string; count: (sql: string) => Promise<number> }> {
  if (kind === 'sqlite') {
    const file = join(dir, 'hookloop.db')
    return {
      where: file,
      count: async (sql) => {
        const db = new BetterSqlite3(file, { readonly: true })
        try {
          return Number((db.prepare(sql).get() as { n: number }).n)
        } finally {
          db.close()
        }
      },
    }
  }
  if (!postgres) throw new Error('no PostgreSQL for this run')
  const where = await postgres.freshDatabase()
  return {
    where,
    count: async (sql) => {
      const client = new pg.Client({ connectionString: where })
      await client.connect()
      try {
        return Number((await client.query<{ n: string }>(sql)).rows[0]?.n ?? 0)
      } finally {
        await client.end()
      }
    },
  }
}

async function drain(kind: StoreKind, processes: number, kill: boolean): Promise<Drain> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-team-'))
  try {
    const store = await freshStore(kind, dir)
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

const sqlite = await drains('sqlite')
const team = postgres ? await drains('postgres') : null
server.close()
await postgres?.stop()
// 300 captures 20 ms apart: steady traffic, each seen on its own.
const lag = await liveLag(Number(process.env.BENCH_TEAM_LAG_CAPTURES ?? 300), 20)

const row = (name: string, d: Drain) => `| ${name.padEnd(48)} | ${String(d.seconds).padStart(7)} | ${String(d.attempts_per_s).padStart(9)} | ${String(d.requests).padStart(8)} | ${String(d.sent_twice).padStart(10)} | ${String(d.never_sent).padStart(10)} | ${String(d.interrupted).padStart(11)} |`
const rows = (store: string, d: Awaited<ReturnType<typeof drains>>) => [row(`${store}: 1 process`, d.one), row(`${store}: 3 processes`, d.three), row(`${store}: 3 processes, one killed with kill -9`, d.three_one_killed)]
const counted = [sqlite, ...(team ? [team] : [])]
const sentTwice = counted.reduce((n, d) => n + d.three.sent_twice + d.three_one_killed.sent_twice, 0)
const neverSent = counted.reduce((n, d) => n + d.three.never_sent + d.three_one_killed.never_sent, 0)
process.stdout.write(
  [
    `Team benchmark: ${EVENTS} due deliveries, a SQLite data folder${team ? ' and a PostgreSQL database' : ''}, sender processes of concurrency 16, a loopback consumer answering 200 after 2 ms; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
    '',
    `| ${'drain'.padEnd(48)} | ${'seconds'.padStart(7)} | ${'attempts/s'.padStart(9)} | ${'requests'.padStart(8)} | ${'sent twice'.padStart(10)} | ${'never sent'.padStart(10)} | ${'interrupted'.padStart(11)} |`,
    `|${'-'.repeat(50)}|${'-'.repeat(9)}|${'-'.repeat(11)}|${'-'.repeat(10)}|${'-'.repeat(12)}|${'-'.repeat(12)}|${'-'.repeat(13)}|`,
    ...rows('data folder', sqlite),
    ...(team ? rows('PostgreSQL', team) : []),
    '',
    `Live lag, a capture stored by \`hookloop listen\` → pushed to a client of \`hookloop serve\` on the same folder: ${lag.seen} of ${lag.captures} seen, p50 ${lag.p50_ms} ms, p99 ${lag.p99_ms} ms, max ${lag.max_ms} ms`,
    '',
  ].join('\n') + '\n',
)
process.stdout.write(
  JSON.stringify({
    bench: 'team',
    due_attempts: EVENTS,
    sent_twice: sentTwice,
    never_sent: neverSent,
    drain: { sqlite, postgres: team },
    three_vs_one: sqlite.three_vs_one,
    three_vs_one_postgres: team?.three_vs_one ?? null,
    pg_vs_sqlite: null,
    two_vs_one: null,
    two_vs_one_of_limit: null,
    live_lag_p99_ms: null,
    live_lag_sqlite: lag,
  }) + '\n',
)
if (sentTwice + neverSent > 0 || lag.seen < lag.captures) process.exitCode = 1
