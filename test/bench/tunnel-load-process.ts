// Benchmark process 3: autocannon, in a process of its own so the load generator does not share
// an event loop with what it measures. Reads its job from argv (JSON), sends back the summary.
import { createRequire } from 'node:module'

// autocannon ships no types; the few fields used here, typed locally.
interface AutocannonResult {
  '2xx': number
  non2xx: number
  errors: number
  timeouts: number
  duration: number
  latency: { p50: number; p99: number }
}
type Autocannon = (options: { url: string; connections: number; duration: number; method: string; body: string; headers: Record<string, string> }) => Promise<AutocannonResult>
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

interface Job {
  url: string
  host?: string
  connections: number
  durationS: number
  body: string
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.durationS,
  method: 'POST',
  body: job.body,
  headers: { 'content-type': 'application/json', ...(job.host ? { host: job.host } : {}) },
})
process.send?.({
  ok2xx: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  durationS: result.duration,
  p50: result.latency.p50,
  p99: result.latency.p99,
})
