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
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10)
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

async function tunnelPath(policy: 'reuse' | 'one-free') {
  const server = await start<{ port: number; url: string }>('tunnel-server-process.mjs', [policy])
  const app = await start<{ receiverPort: number; publicUrl: string }>('tunnel-app-process.mjs', [server.message.url])
  server.child.send({ proxyTo: app.message.receiverPort })
  const proxyPort = await new Promise<number>((resolve) => server.child.once('message', (m: { proxyPort: number }) => resolve(m.proxyPort)))
  return {
    receiverPort: app.message.receiverPort,
    proxyUrl: `http://127.0.0.1:${proxyPort}/h/bench`,
    url: `http://127.0.0.1:${server.message.port}/h/bench`,
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

// The tunnel server's free-socket policy decides much of the tunnel's cost, and it is not
// Hookloop's to choose: measure a server that keeps its sockets (the figure in the JSON line) and
// one with localtunnel-server's policy, which closes all but one after each response. The plain
// proxy row is the tunnel server's own HTTP proxying without any tunnel: the ceiling for any
// tunnel through such a server on this machine.
const reuse = await tunnelPath('reuse')
const results: Record<string, LoadResult> = {}
results.direct = await measure(`http://127.0.0.1:${reuse.receiverPort}/h/bench`, undefined)
results['plain proxy, no tunnel'] = await measure(reuse.proxyUrl, undefined)
results.tunnel = await measure(reuse.url, reuse.host)
reuse.stop()
const oneFree = await tunnelPath('one-free')
results['tunnel, one free socket'] = await measure(oneFree.url, oneFree.host)
oneFree.stop()

const rps = (r: LoadResult) => Math.round(r.ok2xx / r.durationS)
const rows = Object.entries(results).map(([name, r]) => ({
  path: name,
  'req/s (2xx)': rps(r),
  'p50 ms': r.p50,
  'p99 ms': r.p99,
  'non-2xx': r.non2xx,
  errors: r.errors + r.timeouts,
}))
process.stdout.write(`tunnel benchmark: ${CONNECTIONS} connections, ${DURATION_S} s each, POST ${Buffer.byteLength(BODY)} B JSON, Node ${process.version}\n`)
console.table(rows)
const direct = rps(results.direct)
const tunnel = rps(results.tunnel as LoadResult)
const ratio = Math.round((tunnel / direct) * 100) / 100
const vsProxy = Math.round((tunnel / rps(results['plain proxy, no tunnel'] as LoadResult)) * 100) / 100
process.stdout.write(`tunnel / direct: ${ratio}   tunnel / plain proxy: ${vsProxy} (what the tunnel adds over the server's own proxying)\n`)
process.stdout.write(`${JSON.stringify({ bench: 'tunnel', rps: { direct, tunnel }, ratio_vs_direct: ratio })}\n`)
