// npm run bench:team — a team's store, measured. Today: 10 000 due deliveries drained by three
// sender processes on one data folder (each claims a delivery before it sends it), once as they
// are and once with one process killed with kill -9 mid-way (the others take its claims over),
// beside one process draining them alone; every request counted by a consumer of ours on
// loopback. And the live lag between two processes on one data folder: `hookloop listen` captures,
// the app of `hookloop serve` shows it (team-live-lag.ts). Figures that need `serve` on PostgreSQL
// (capture rate against SQLite, two processes against one, live lag between processes on
// PostgreSQL) are null until the engine runs on it (docs/team.md).
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import BetterSqlite3 from 'better-sqlite3'
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
const run = (file: string, mode: string, n = '0') => spawn(process.execPath, [child, file, url, mode, n], { stdio: ['ignore', 'pipe', 'inherit'] })
const firstLine = (c: ChildProcess) =>
  new Promise<void>((r) => {
    let out = ''
    c.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('\n')) r()
    })
  })

interface Drain { processes: number; killed: boolean; seconds: number; attempts_per_s: number; sent_twice: number; never_sent: number; interrupted: number; requests: number }

async function drain(processes: number, kill: boolean): Promise<Drain> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-team-'))
  const file = join(dir, 'hookloop.db')
  try {
    byEvent.clear()
    const seed = run(file, 'seed', String(EVENTS))
    await exited(seed)
    const started = performance.now()
    const drains = Array.from({ length: processes }, () => run(file, 'drain'))
    await Promise.all(drains.map(firstLine))
    if (kill) {
      while ([...byEvent.values()].length < EVENTS / 3) await new Promise((r) => setTimeout(r, 5))
      drains[0]!.kill('SIGKILL')
    }
    await Promise.all(drains.map(exited))
    const seconds = (performance.now() - started) / 1000
    const db = new BetterSqlite3(file, { readonly: true })
    const twice = db.prepare("SELECT COUNT(*) FROM (SELECT delivery_id FROM attempts WHERE outcome != 'interrupted' GROUP BY delivery_id HAVING COUNT(*) > 1)").pluck().get() as number
    const unsent = db.prepare("SELECT COUNT(*) FROM deliveries WHERE status != 'succeeded'").pluck().get() as number
    const interrupted = db.prepare("SELECT COUNT(*) FROM attempts WHERE outcome = 'interrupted'").pluck().get() as number
    db.close()
    const requests = [...byEvent.values()].reduce((a, b) => a + b, 0)
    // Never sent: a delivery no request reached the consumer for.
    const neverSent = Math.max(unsent, EVENTS - byEvent.size)
    return { processes, killed: kill, seconds: Number(seconds.toFixed(2)), attempts_per_s: Math.round(EVENTS / seconds), sent_twice: twice, never_sent: neverSent, interrupted, requests }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const one = await drain(1, false)
const three = await drain(3, false)
const killed = await drain(3, true)
server.close()
// 300 captures 20 ms apart: steady traffic, each seen on its own.
const lag = await liveLag(Number(process.env.BENCH_TEAM_LAG_CAPTURES ?? 300), 20)

const row = (name: string, d: Drain) => `| ${name.padEnd(36)} | ${String(d.seconds).padStart(7)} | ${String(d.attempts_per_s).padStart(9)} | ${String(d.requests).padStart(8)} | ${String(d.sent_twice).padStart(10)} | ${String(d.never_sent).padStart(10)} | ${String(d.interrupted).padStart(11)} |`
process.stdout.write(
  [
    `Team benchmark: ${EVENTS} due deliveries, one SQLite data folder, sender processes of concurrency 16, a loopback consumer answering 200 after 2 ms; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
    '',
    `| ${'drain'.padEnd(36)} | ${'seconds'.padStart(7)} | ${'attempts/s'.padStart(9)} | ${'requests'.padStart(8)} | ${'sent twice'.padStart(10)} | ${'never sent'.padStart(10)} | ${'interrupted'.padStart(11)} |`,
    `|${'-'.repeat(38)}|${'-'.repeat(9)}|${'-'.repeat(11)}|${'-'.repeat(10)}|${'-'.repeat(12)}|${'-'.repeat(12)}|${'-'.repeat(13)}|`,
    row('1 process', one),
    row('3 processes', three),
    row('3 processes, one killed with kill -9', killed),
    '',
    `Live lag, a capture stored by \`hookloop listen\` → pushed to a client of \`hookloop serve\` on the same folder: ${lag.seen} of ${lag.captures} seen, p50 ${lag.p50_ms} ms, p99 ${lag.p99_ms} ms, max ${lag.max_ms} ms`,
    '',
  ].join('\n') + '\n',
)
process.stdout.write(
  JSON.stringify({
    bench: 'team',
    store: 'sqlite',
    due_attempts: EVENTS,
    sent_twice: three.sent_twice + killed.sent_twice,
    never_sent: three.never_sent + killed.never_sent,
    drain: { one, three, three_one_killed: killed },
    three_vs_one: Number((three.attempts_per_s / one.attempts_per_s).toFixed(3)),
    pg_vs_sqlite: null,
    two_vs_one: null,
    two_vs_one_of_limit: null,
    live_lag_p99_ms: null,
    live_lag_sqlite: lag,
  }) + '\n',
)
if (three.sent_twice + killed.sent_twice + three.never_sent + killed.never_sent > 0 || lag.seen < lag.captures) process.exitCode = 1
