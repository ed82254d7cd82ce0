// What bench:receiver and bench:retention share: each target is a fresh server process, warmed up,
// then loaded by receiver-load-process with the same connections and duration; rounds interleave
// the targets (rotating who goes first) so a noisy neighbour hurts all alike.
import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

// Bundled next to the benchmark's entry (out/bench/<name>/), as are the processes it forks.
const here = dirname(fileURLToPath(import.meta.url))
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5)
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
export const WARMUP_S = 1
const secret = `whsec_${randomBytes(32).toString('base64')}`

export interface Load {
  requests: number
  ok2xx: number
  non2xx: number
  errors: number
  timeouts: number
  rps: number
  p50: number
  p99: number
}

export interface Measure {
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
async function measure(serverProcess: string, target: string): Promise<Measure> {
  const server = fork(join(here, `${serverProcess}.mjs`), [target, secret], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
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

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** ROUNDS rounds over every target, each run by `serverProcess` (test/bench/<serverProcess>.ts). */
export async function runRounds<T extends string>(serverProcess: string, targets: readonly T[]): Promise<Record<T, Measure[]>> {
  const runs = Object.fromEntries(targets.map((t) => [t, [] as Measure[]])) as Record<T, Measure[]>
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length] as T
      runs[target].push(await measure(serverProcess, target))
    }
  }
  return runs
}
