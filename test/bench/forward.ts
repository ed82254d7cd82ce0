// npm run bench:forward — one run, the same load generator and the same bare target app for each
// proxy in front of it: (a) a bare node:http proxy doing the hop, (b) mockttp forwarding
// (thenForwardTo), (c) Hookloop capturing every request to SQLite and forwarding it (an
// endpoint's forward_to). Throughput under load (autocannon, signed requests), then the latency
// each hop adds at low load (one request at a time, against the target alone). Each server and
// each load generator runs in its own process (load-rig.ts). Prints a table, then one JSON line.
import { cpus } from 'node:os'
import { CONNECTIONS, DURATION_S, ipc, load, markdownTable, median, pairedRatio, ROUNDS, startServerProcess, summary, printReport, WARMUP_S, type Load } from './load-rig'

const LATENCY_REQUESTS = Number(process.env.BENCH_LATENCY_REQUESTS ?? 2000)
const PROXIES = ['bare', 'mockttp', 'hookloop'] as const
type Proxy = (typeof PROXIES)[number]

const startServer = (role: string, target = '') => startServerProcess('forward-proxy-process', [role, target])
const latency = (url: string) => ipc<{ p50: number; p99: number }>('forward-latency-process.mjs', { url, requests: LATENCY_REQUESTS })

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
const targetSeen = (await target.stop()).seen ?? 0

const of = (p: Proxy) => summary(runs[p])
const cpuPerRequest = (p: Proxy) => median(runs[p].map((m) => (m.stats.cpuUs ?? 0) / Math.max(1, m.answered2xx + LATENCY_REQUESTS)))
const latP = (p: Proxy | 'direct', q: 'p50' | 'p99') => median(lat[p].map((l) => l[q]))
// What a hop adds: the proxy's latency minus the target's own, round by round (same minute of load).
const added = (p: Proxy, q: 'p50' | 'p99') => median(lat[p].map((l, i) => l[q] - (lat.direct[i]?.[q] ?? 0)))
const ratioBare = pairedRatio(runs.hookloop, runs.bare)
const ratioMockttp = pairedRatio(runs.hookloop, runs.mockttp)
const hook = runs.hookloop
const answered = hook.reduce((sum, m) => sum + m.answered2xx + LATENCY_REQUESTS, 0)
const rows = hook.reduce((sum, m) => sum + (m.stats.rows ?? 0), 0)
const legs = hook.reduce((sum, m) => sum + (m.stats.legs ?? 0), 0)
const allStored = hook.every((m) => (m.stats.rows ?? 0) >= m.answered2xx + LATENCY_REQUESTS && (m.stats.legs ?? 0) >= m.answered2xx + LATENCY_REQUESTS)

const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`
const row = (name: string, p: Proxy) => [
  name,
  of(p).rps.toFixed(0),
  of(p).p99.toFixed(1),
  runs[p].map((m) => m.load.rps.toFixed(0)).join(' / '),
  cpuPerRequest(p).toFixed(0),
  ms(added(p, 'p50')),
  ms(added(p, 'p99')),
  String(of(p).errors),
]
const table = [
  `Forward benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S} s per proxy (after ${WARMUP_S} s warm-up), then ${LATENCY_REQUESTS} requests one at a time; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  '',
  ...markdownTable(
    [46, 7, 6, 20, 9, 9, 9, 6],
    ['proxy in front of a bare target', 'req/s', 'p99 ms', 'req/s per round', 'CPU µs/req', '+p50', '+p99', 'errors'],
    [row('(a) bare node:http proxy', 'bare'), row('(b) mockttp thenForwardTo', 'mockttp'), row('(c) Hookloop: capture to SQLite + forward', 'hookloop')],
  ),
  '',
  `(c)/(a) = ${ratioBare.toFixed(2)} (goal ≥ 0.5)   (c)/(b) = ${ratioMockttp.toFixed(2)} (goal ≥ 1)   medians of the per-round ratios over ${ROUNDS} rounds`,
  `Server CPU per request: (a)/(c) = ${(cpuPerRequest('bare') / cpuPerRequest('hookloop')).toFixed(2)}, (b)/(c) = ${(cpuPerRequest('mockttp') / cpuPerRequest('hookloop')).toFixed(2)} (above 1 = Hookloop is cheaper)`,
  `Low load, one request at a time: the target alone p50 ${ms(latP('direct', 'p50'))}, p99 ${ms(latP('direct', 'p99'))}; +p50/+p99 = what the hop adds (per-round medians).`,
  `Hookloop: ${answered} requests answered 2xx, ${rows} rows and ${legs} answered legs on disk (${allStored ? 'every answered request stored with its leg' : 'ROWS OR LEGS MISSING'}).`,
]
printReport('forward', table, PROXIES, of, { bare: ratioBare, mockttp: ratioMockttp }, {
  added_latency_us: Object.fromEntries(PROXIES.map((p) => [p, { p50: Math.round(added(p, 'p50')), p99: Math.round(added(p, 'p99')) }])),
  direct_latency_us: { p50: Math.round(latP('direct', 'p50')), p99: Math.round(latP('direct', 'p99')) },
  cpu_us: Object.fromEntries(PROXIES.map((p) => [p, Math.round(cpuPerRequest(p))])),
  hookloop_rows_on_disk: rows,
  hookloop_legs_on_disk: legs,
  target_seen_direct: targetSeen,
})
if (!allStored) process.exitCode = 1
