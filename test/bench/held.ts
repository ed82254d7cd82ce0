// npm run bench:held — how long a request held at a breakpoint takes to reach the screen: from the
// moment its sender sent it to the moment a UI client of `hookloop serve` (the app's own control
// socket, read as the browser reads it) has the `breakpoint.held` event with its whole content.
// Each request is released from that client as soon as it is seen, as a person would, then the
// next one goes. One JSON line; the goal is a p99 at or under 200 ms.
import { cpus, loadavg } from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, serve, stop } from './scale-control'

const HOLDS = Number(process.argv.find((a) => a.startsWith('--holds='))?.slice('--holds='.length) ?? 300)
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-held-'))
const served = await serve(dir)
const control = await connect(served)
const load: number[] = [loadavg()[0] ?? 0]
const lags: number[] = []
let statuses = 0
try {
  const endpoint = await control.call<{ id: string; localUrl: string }>('endpoint.create', { name: 'pay', scheme: null, secrets: [], dedupe: null })
  await control.call('breakpoint.put', { breakpoint: { endpointId: endpoint.id, matchers: [{ type: 'method', method: 'POST' }], limitMs: 10_000 } })
  let waiting: ((requestId: number) => void) | null = null
  control.onEvents((batch) => {
    for (const event of batch) if (event.name === 'breakpoint.held') waiting?.((event.payload as { requestId: number }).requestId)
  })
  for (let i = 0; i < HOLDS; i++) {
    const seen = new Promise<number>((resolve) => (waiting = resolve))
    const sentAt = performance.now()
    const answer = fetch(endpoint.localUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: i, type: 'held.probe' }) })
    const requestId = await seen
    lags.push(performance.now() - sentAt)
    await control.call('held.release', { requestId })
    const response = await answer
    await response.arrayBuffer()
    if (response.status === 200) statuses++
  }
} finally {
  control.close()
  await stop(served)
  rmSync(dir, { recursive: true, force: true })
}
load.push(loadavg()[0] ?? 0)
const sorted = [...lags].sort((a, b) => a - b)
const ms = (n: number) => Math.round(n * 10) / 10
process.stdout.write(
  `Held to screen: ${HOLDS} requests held one at a time at a breakpoint of \`hookloop serve\`, each released from the UI's socket once seen; ${cpus().length} CPUs, load ${load.map((l) => l.toFixed(1)).join(' → ')}\n` +
    `p50 ${ms(quantile(sorted, 0.5))} ms, p99 ${ms(quantile(sorted, 0.99))} ms (goal ≤ 200), max ${ms(sorted.at(-1) ?? Number.NaN)} ms; ${statuses} of ${HOLDS} answered 200 once released\n`,
)
process.stdout.write(
  JSON.stringify({ bench: 'held', holds: HOLDS, released_200: statuses, held_to_screen_ms: { p50: ms(quantile(sorted, 0.5)), p99: ms(quantile(sorted, 0.99)), max: ms(sorted.at(-1) ?? Number.NaN) }, load: load.map((l) => Math.round(l * 10) / 10) }) + '\n',
)
if (statuses !== HOLDS) process.exitCode = 1
