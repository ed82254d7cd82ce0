// npm run bench:forward — one run, the same load generator and the same bare target app for each
// proxy in front of it: (a) a bare node:http proxy doing the hop, (b) mockttp forwarding
// (thenForwardTo), (c) Hookloop capturing every request to SQLite and forwarding it (an
// endpoint's forward_to). Throughput under load (autocannon, signed requests), then the latency
// each hop adds at low load (one request at a time, against the target alone). Each server and
// each load generator runs in its own process. Prints a table, then one JSON line.
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
const LATENCY_REQUESTS = Number(process.env.BENCH_LATENCY_REQUESTS ?? 2000)
const WARMUP_S = 1
const secret = `whsec_${randomBytes(32).toString('base64')}`
const PROXIES = ['bare', 'mockttp', 'hookloop'] as const
type Proxy = (typeof PROXIES)[number]

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

interface Server {
  port: number
  stop(): Promise<Record<string, number>>
}

async function startServer(role: string, target = ''): Promise<Server> {
  const child: ChildProcess = fork(join(here, 'forward-proxy-process.mjs'), [role, target], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  if (!child.stdout) throw new Error('no stdout')
  const out = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const { port } = JSON.parse(String((await out.next()).value)) as { port: number }
  return {
    port,
    async stop() {
      child.kill('SIGTERM')
      const { stopped: _s, ...stats } = JSON.parse(String((await out.next()).value)) as Record<string, number>
      return stats
    },
  }
}

function ipc<T>(file: string, job: unknown): Promise<T> {
  const child = fork(join(here, file), [JSON.stringify(job)], { stdio: 'inherit' })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T))
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${file} exited with ${code}`))))
  })
}

const load = (url: string, durationS: number) => ipc<Load>('receiver-load-process.mjs', { url, connections: CONNECTIONS, durationS, secret })
const latency = (url: string) => ipc<{ p50: number; p99: number }>('forward-latency-process.mjs', { url, requests: LATENCY_REQUESTS })

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

interface Run {
  load: Load
  answered2xx: number
  stats: Record<string, number>
  /** Requests the target saw during this proxy's runs. */
  reachedTarget: number
}

const target = await startServer('target')
const targetUrl = `http://127.0.0.1:${target.port}/hook`
const runs: Record<Proxy, Run[]> = { bare: [], mockttp: [], hookloop: [] }
const lat: Record<Proxy | 'direct', { p50: number; p99: number }[]> = { direct: [], bare: [], mockttp: [], hookloop: [] }
let targetSeen = 0

// The target counts what reached it; it is restarted per measurement so each count is its own.
async function measure(proxy: Proxy): Promise<void> {
  const app = await startServer('target')
  const server = await startServer(proxy, `http://127.0.0.1:${app.port}/hook`)
  const url = `http://127.0.0.1:${server.port}/h/bench`
  const warm = await load(url, WARMUP_S)
  const result = await load(url, DURATION_S)
  lat[proxy].push(await latency(url))
  const stats = await server.stop()
  const seen = (await app.stop()).seen ?? 0
  runs[proxy].push({ load: result, answered2xx: warm.ok2xx + result.ok2xx, stats, reachedTarget: seen })
}

// Rounds interleave the proxies (rotating who goes first) so a noisy neighbour hurts all alike.
for (let round = 0; round < ROUNDS; round++) {
  lat.direct.push(await latency(targetUrl))
  for (let i = 0; i < PROXIES.length; i++) await measure(PROXIES[(i + round) % PROXIES.length] as Proxy)
}
targetSeen = (await target.stop()).seen ?? 0

const rps = (p: Proxy) => median(runs[p].map((m) => m.load.rps))
const p99 = (p: Proxy) => median(runs[p].map((m) => m.load.p99))
const errors = (p: Proxy) => runs[p].reduce((sum, m) => sum + m.load.non2xx + m.load.errors + m.load.timeouts, 0)
const cpuPerRequest = (p: Proxy) => median(runs[p].map((m) => (m.stats.cpuUs ?? 0) / Math.max(1, m.answered2xx + LATENCY_REQUESTS)))
const pairedRatio = (over: Proxy) => median(runs.hookloop.map((m, i) => m.load.rps / (runs[over][i]?.load.rps ?? Number.NaN)))
const latP = (p: Proxy | 'direct', q: 'p50' | 'p99') => median(lat[p].map((l) => l[q]))
// What a hop adds: the proxy's latency minus the target's own, round by round (same minute of load).
const added = (p: Proxy, q: 'p50' | 'p99') => median(lat[p].map((l, i) => l[q] - (lat.direct[i]?.[q] ?? 0)))
const ratioBare = pairedRatio('bare')
const ratioMockttp = pairedRatio('mockttp')
const hook = runs.hookloop
const answered = hook.reduce((sum, m) => sum + m.answered2xx + LATENCY_REQUESTS, 0)
const rows = hook.reduce((sum, m) => sum + (m.stats.rows ?? 0), 0)
const legs = hook.reduce((sum, m) => sum + (m.stats.legs ?? 0), 0)
const allStored = hook.every((m) => (m.stats.rows ?? 0) >= m.answered2xx + LATENCY_REQUESTS && (m.stats.legs ?? 0) >= m.answered2xx + LATENCY_REQUESTS)

const us = (v: number) => `${(v / 1000).toFixed(2)} ms`
const row = (name: string, p: Proxy) =>
  `| ${name.padEnd(46)} | ${rps(p).toFixed(0).padStart(7)} | ${p99(p).toFixed(1).padStart(6)} | ${runs[p].map((m) => m.load.rps.toFixed(0)).join(' / ').padStart(20)} | ${cpuPerRequest(p).toFixed(0).padStart(9)} | ${us(added(p, 'p50')).padStart(9)} | ${us(added(p, 'p99')).padStart(9)} | ${String(errors(p)).padStart(6)} |`
const table = [
  `Forward benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S} s per proxy (after ${WARMUP_S} s warm-up), then ${LATENCY_REQUESTS} requests one at a time; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  '',
  `| ${'proxy in front of a bare target'.padEnd(46)} | ${'req/s'.padStart(7)} | ${'p99 ms'.padStart(6)} | ${'req/s per round'.padStart(20)} | ${'CPU µs/req'.padStart(9)} | ${'+p50'.padStart(9)} | ${'+p99'.padStart(9)} | ${'errors'.padStart(6)} |`,
  `|${'-'.repeat(48)}|${'-'.repeat(9)}|${'-'.repeat(8)}|${'-'.repeat(22)}|${'-'.repeat(11)}|${'-'.repeat(11)}|${'-'.repeat(11)}|${'-'.repeat(8)}|`,
  row('(a) bare node:http proxy', 'bare'),
  row('(b) mockttp thenForwardTo', 'mockttp'),
  row('(c) Hookloop: capture to SQLite + forward', 'hookloop'),
  '',
  `(c)/(a) = ${ratioBare.toFixed(2)} (goal ≥ 0.5)   (c)/(b) = ${ratioMockttp.toFixed(2)} (goal ≥ 1)   medians of the per-round ratios over ${ROUNDS} rounds`,
  `Low load, one request at a time: the target alone p50 ${us(latP('direct', 'p50'))}, p99 ${us(latP('direct', 'p99'))}; +p50/+p99 = what the hop adds (per-round medians).`,
  `Hookloop: ${answered} requests answered 2xx, ${rows} rows and ${legs} answered legs on disk (${allStored ? 'every answered request stored with its leg' : 'ROWS OR LEGS MISSING'}).`,
]
process.stdout.write(table.join('\n') + '\n')
process.stdout.write(
  JSON.stringify({
    bench: 'forward',
    rps: { bare: Math.round(rps('bare')), mockttp: Math.round(rps('mockttp')), hookloop: Math.round(rps('hookloop')) },
    p99_ms: { bare: p99('bare'), mockttp: p99('mockttp'), hookloop: p99('hookloop') },
    ratio_vs_bare: Number(ratioBare.toFixed(3)),
    ratio_vs_mockttp: Number(ratioMockttp.toFixed(3)),
    added_latency_us: Object.fromEntries(PROXIES.map((p) => [p, { p50: Math.round(added(p, 'p50')), p99: Math.round(added(p, 'p99')) }])),
    direct_latency_us: { p50: Math.round(latP('direct', 'p50')), p99: Math.round(latP('direct', 'p99')) },
    cpu_us_per_request: Object.fromEntries(PROXIES.map((p) => [p, Math.round(cpuPerRequest(p))])),
    hookloop_rows_on_disk: rows,
    hookloop_legs_on_disk: legs,
    target_seen_direct: targetSeen,
  }) + '\n',
)
if (!allStored) process.exitCode = 1
