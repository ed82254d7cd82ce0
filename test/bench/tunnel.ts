// npm run bench:tunnel — requests/s and p99 latency of webhooks POSTed through the loopback tunnel
// (load generator → tunnel server → one of Hookloop's tunnel sockets → receiver) against the same
// load sent straight to the same receiver. Three processes: the tunnel server, Hookloop's side
// (receiver + tunnel manager), and autocannon. Nothing is asserted; figures are printed, and the
// last line is one JSON object.
import { fork, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5)
// Direct and tunnel alternate for ROUNDS rounds and the median round counts, so that load from
// other jobs on the machine drifting over a minute hits both paths alike.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const BODY = JSON.stringify({
  event_id: '5f0c2a8e-9b1d-4c3e-8f7a-6b5d4c3b2a19',
  event_type: 'booking.created',
  payload: { booking_id: 'bk_12345', clinic_id: 'cl_678', patient: { name: 'Jan Kowalski' }, starts_at: '2026-12-01T09:30:00Z', notes: 'x'.repeat(300) },
})

interface LoadResult {
  ok2xx: number
  non2xx: number
  errors: number
  timeouts: number
  durationS: number
  p50: number
  p99: number
}

function start<T>(file: string, args: string[]): Promise<{ child: ChildProcess; message: T }> {
  const child = fork(join(here, file), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, message: message as T }))
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)))
  })
}

async function load(url: string, host: string | undefined, durationS: number): Promise<LoadResult> {
  const job = { url, host, connections: CONNECTIONS, durationS, body: BODY }
  const { child, message } = await start<LoadResult>('tunnel-load-process.mjs', [JSON.stringify(job)])
  child.disconnect()
  return message
}

async function tunnelPath(policy: 'reuse' | 'one-free', receiver: 'hookloop' | 'minimal') {
  const server = await start<{ port: number; url: string }>('tunnel-server-process.mjs', [policy])
  const app = await start<{ receiverPort: number; publicUrl: string }>('tunnel-app-process.mjs', [server.message.url, receiver])
  server.child.send({ proxyTo: app.message.receiverPort })
  const proxyPort = await new Promise<number>((resolve) => server.child.once('message', (m: { proxyPort: number }) => resolve(m.proxyPort)))
  return {
    direct: `http://127.0.0.1:${app.message.receiverPort}/h/bench`,
    proxy: `http://127.0.0.1:${proxyPort}/h/bench`,
    tunnel: `http://127.0.0.1:${server.message.port}/h/bench`,
    host: new URL(app.message.publicUrl).host,
    stop() {
      app.child.disconnect()
      server.child.disconnect()
    },
  }
}

async function measure(url: string, host: string | undefined): Promise<LoadResult> {
  await load(url, host, 1) // warm up (JIT, socket pools)
  return load(url, host, DURATION_S)
}

// Two receivers: Hookloop's own (the product path: the figures in the JSON line) and a bare
// node:http server, against which the tunnel's own cost shows. The tunnel server's free-socket
// policy is not Hookloop's to choose: "tunnel" is a server that keeps its sockets, "one free
// socket" is localtunnel-server's policy (all but one closed after each response). "plain proxy"
// is the tunnel server's HTTP proxying alone, one hop, no tunnel.
function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.ok2xx / a.durationS - b.ok2xx / b.durationS)
  return sorted[Math.floor(sorted.length / 2)] as LoadResult
}

const results: Record<string, LoadResult> = {}
for (const receiver of ['hookloop', 'minimal'] as const) {
  const reuse = await tunnelPath('reuse', receiver)
  await load(reuse.direct, undefined, 1) // warm up (JIT, socket pools)
  await load(reuse.tunnel, reuse.host, 1)
  const direct: LoadResult[] = []
  const tunnel: LoadResult[] = []
  for (let round = 0; round < ROUNDS; round++) {
    direct.push(await load(reuse.direct, undefined, DURATION_S))
    tunnel.push(await load(reuse.tunnel, reuse.host, DURATION_S))
  }
  results[`${receiver} receiver: direct`] = median(direct)
  results[`${receiver} receiver: tunnel`] = median(tunnel)
  if (receiver === 'minimal') results[`${receiver} receiver: plain proxy, no tunnel`] = await measure(reuse.proxy, undefined)
  reuse.stop()
  const oneFree = await tunnelPath('one-free', receiver)
  results[`${receiver} receiver: tunnel, one free socket`] = await measure(oneFree.tunnel, oneFree.host)
  oneFree.stop()
}

const rps = (r: LoadResult | undefined) => (r ? Math.round(r.ok2xx / r.durationS) : 0)
const rows = Object.entries(results).map(([name, r]) => ({
  path: name,
  'req/s (2xx)': rps(r),
  'p50 ms': r.p50,
  'p99 ms': r.p99,
  'non-2xx': r.non2xx,
  errors: r.errors + r.timeouts,
}))
process.stdout.write(
  `tunnel benchmark: ${CONNECTIONS} connections, POST ${Buffer.byteLength(BODY)} B JSON, Node ${process.version}; direct and tunnel: median of ${ROUNDS} alternating ${DURATION_S} s runs, other rows one run\n`,
)
console.table(rows)
const ratioOf = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 100) / 100)
const minimal = {
  direct: rps(results['minimal receiver: direct']),
  proxy: rps(results['minimal receiver: plain proxy, no tunnel']),
  tunnel: rps(results['minimal receiver: tunnel']),
}
process.stdout.write(
  `minimal receiver: tunnel / direct ${ratioOf(minimal.tunnel, minimal.direct)}, tunnel / plain proxy ${ratioOf(minimal.tunnel, minimal.proxy)} (what the tunnel adds over the server's own proxying)\n`,
)
const direct = rps(results['hookloop receiver: direct'])
const tunnel = rps(results['hookloop receiver: tunnel'])
process.stdout.write(`${JSON.stringify({ bench: 'tunnel', rps: { direct, tunnel }, ratio_vs_direct: ratioOf(tunnel, direct) })}\n`)
