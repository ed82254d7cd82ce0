// npm run bench:receiver — one run, same load generator and concurrency for each target:
// (a) bare node:http answering 200, (b) mockttp with a 200 rule, (c) Hookloop's receiver
// capturing, verifying a Standard Webhooks signature, deduping and persisting every request.
// Servers and the load generator each run in their own process. Prints a table, then one JSON line.
import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const WARMUP_S = 1
const secret = `whsec_${randomBytes(32).toString('base64')}`
const TARGETS = ['bare', 'mockttp', 'hookloop'] as const
type Target = (typeof TARGETS)[number]

interface Load {
  requests: number
  ok2xx: number
  non2xx: number
  errors: number
  timeouts: number
  rps: number
  p50: number
  p99: number
}

interface Measure {
  load: Load
  /** Everything answered 2xx to this server, warm-up included. */
  answered2xx: number
  stored: Record<string, number>
}

function lines(child: ChildProcess): AsyncIterator<string> {
  if (!child.stdout) throw new Error('no stdout')
  return createInterface({ input: child.stdout })[Symbol.asyncIterator]()
}

async function load(url: string, durationS: number): Promise<Load> {
  const child = fork(join(here, 'receiver-load-process.mjs'), [JSON.stringify({ url, connections: CONNECTIONS, durationS, secret })], { stdio: 'inherit' })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as Load))
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`))))
  })
}

/** A fresh server process, a warm-up, one measured run, then the server's own account of what it stored. */
async function measure(target: Target): Promise<Measure> {
  const server = fork(join(here, 'receiver-server-process.mjs'), [target, secret], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const out = lines(server)
  const ready = await out.next()
  const { port } = JSON.parse(String(ready.value)) as { port: number }
  const url = `http://127.0.0.1:${port}/h/bench`
  const warm = await load(url, WARMUP_S)
  const result = await load(url, DURATION_S)
  server.kill('SIGTERM')
  const stopped = await out.next()
  const { stopped: _s, ...stored } = JSON.parse(String(stopped.value)) as Record<string, number>
  return { load: result, answered2xx: warm.ok2xx + result.ok2xx, stored }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

// Rounds interleave the targets (rotating who goes first) so a noisy neighbour hurts all alike.
const runs: Record<Target, Measure[]> = { bare: [], mockttp: [], hookloop: [] }
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < TARGETS.length; i++) {
    const target = TARGETS[(i + round) % TARGETS.length] as Target
    runs[target].push(await measure(target))
  }
}

const rps = (t: Target) => median(runs[t].map((m) => m.load.rps))
const p99 = (t: Target) => median(runs[t].map((m) => m.load.p99))
const errors = (t: Target) => runs[t].reduce((sum, m) => sum + m.load.non2xx + m.load.errors + m.load.timeouts, 0)
/** Server CPU time per request answered (warm-up included on both sides). */
const cpuPerRequest = (t: Target) => median(runs[t].map((m) => (m.stored.cpuUs ?? 0) / Math.max(1, m.answered2xx)))
// Ratios are taken round by round (the three runs of a round are minutes apart at most, so they
// share the machine's load of the moment), then the median over rounds.
const pairedRatio = (over: Target) => median(runs.hookloop.map((m, i) => m.load.rps / (runs[over][i]?.load.rps ?? Number.NaN)))
const ratioBare = pairedRatio('bare')
const ratioMockttp = pairedRatio('mockttp')
const hookRuns = runs.hookloop
const answered = hookRuns.reduce((sum, m) => sum + m.answered2xx, 0)
const rows = hookRuns.reduce((sum, m) => sum + (m.stored.rows ?? 0), 0)
const valid = hookRuns.reduce((sum, m) => sum + (m.stored.valid ?? 0), 0)
const everyAnswerOnDisk = hookRuns.every((m) => (m.stored.rows ?? 0) >= m.answered2xx)

const row = (name: string, t: Target) =>
  `| ${name.padEnd(50)} | ${rps(t).toFixed(0).padStart(7)} | ${p99(t).toFixed(1).padStart(6)} | ${runs[t].map((m) => m.load.rps.toFixed(0)).join(' / ').padStart(20)} | ${cpuPerRequest(t).toFixed(0).padStart(9)} | ${String(errors(t)).padStart(6)} |`
const table = [
  `Receiver benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S} s per target (after ${WARMUP_S} s warm-up each); ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  '',
  `| ${'target'.padEnd(50)} | ${'req/s'.padStart(7)} | ${'p99 ms'.padStart(6)} | ${'req/s per round'.padStart(20)} | ${'CPU µs/req'.padStart(9)} | ${'errors'.padStart(6)} |`,
  `|${'-'.repeat(52)}|${'-'.repeat(9)}|${'-'.repeat(8)}|${'-'.repeat(22)}|${'-'.repeat(11)}|${'-'.repeat(8)}|`,
  row('(a) bare node:http, 200', 'bare'),
  row('(b) mockttp, rule answers 200', 'mockttp'),
  row('(c) Hookloop: capture, verify, dedupe, SQLite', 'hookloop'),
  '',
  `(c)/(a) = ${ratioBare.toFixed(2)} (target ≥ 0.5)   (c)/(b) = ${ratioMockttp.toFixed(2)} (target > 1)   medians of the per-round ratios over ${ROUNDS} rounds`,
  `Server CPU per request: (a)/(c) = ${(cpuPerRequest('bare') / cpuPerRequest('hookloop')).toFixed(2)}, (b)/(c) = ${(cpuPerRequest('mockttp') / cpuPerRequest('hookloop')).toFixed(2)} (above 1 = Hookloop is cheaper)`,
  `Hookloop: ${answered} requests answered 2xx, ${rows} rows on disk (${everyAnswerOnDisk ? 'every answered request stored' : 'ROWS MISSING'}), ${valid} with a valid Standard Webhooks signature.`,
]
process.stdout.write(table.join('\n') + '\n')
process.stdout.write(
  JSON.stringify({
    bench: 'receiver',
    rps: { bare: Math.round(rps('bare')), mockttp: Math.round(rps('mockttp')), hookloop: Math.round(rps('hookloop')) },
    p99_ms: { bare: p99('bare'), mockttp: p99('mockttp'), hookloop: p99('hookloop') },
    ratio_vs_bare: Number(ratioBare.toFixed(3)),
    ratio_vs_mockttp: Number(ratioMockttp.toFixed(3)),
    cpu_us_per_request: { bare: Math.round(cpuPerRequest('bare')), mockttp: Math.round(cpuPerRequest('mockttp')), hookloop: Math.round(cpuPerRequest('hookloop')) },
    hookloop_answered_2xx: answered,
    hookloop_rows_on_disk: rows,
    hookloop_valid_signatures: valid,
  }) + '\n',
)
if (!everyAnswerOnDisk) process.exitCode = 1
