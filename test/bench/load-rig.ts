// What bench:receiver, bench:retention and bench:forward share: each target is a fresh server process, warmed up,
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
export const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 1)
export const secret = `whsec_${randomBytes(32).toString('base64')}`

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

/** A bundled process (out/bench/<name>/<file>) that sends one result over IPC, then exits. */
export function ipc<T>(file: string, job: unknown): Promise<T> {
  const child = fork(join(here, file), [JSON.stringify(job)], { stdio: 'inherit' })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T))
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${file} exited with ${code}`))))
  })
}

/** Signed requests from receiver-load-process: CONNECTIONS connections for `durationS`. */
/** What the load sends: a Standard Webhooks message, or a real GitHub delivery (the schema verdict's targets). */
export type LoadDelivery = 'standard-webhooks' | 'github'
export const load = (url: string, durationS: number, delivery: LoadDelivery = 'standard-webhooks'): Promise<Load> =>
  ipc<Load>('receiver-load-process.mjs', { url, connections: CONNECTIONS, durationS, secret, delivery })

export interface ServerProcess {
  port: number
  /** The server process's id (bench:costs reads its threads' CPU time from the OS). */
  pid: number
  /** SIGTERM, then what the server said it stored (and its CPU time, cpuUs). */
  stop(): Promise<Record<string, number>>
}

/**
 * Starts test/bench/<serverProcess>.ts (bench-server.ts's protocol; or the bundle at that path, when
 * it is one: another tree's) with `args` (and Node flags: `--cpu-prof` …).
 */
export async function startServerProcess(serverProcess: string, args: string[], execArgv: string[] = []): Promise<ServerProcess> {
  const file = serverProcess.endsWith('.mjs') ? serverProcess : join(here, `${serverProcess}.mjs`)
  const server = fork(file, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv })
  const out = lines(server)
  const { port } = JSON.parse(String((await out.next()).value)) as { port: number }
  return {
    port,
    pid: server.pid as number,
    async stop() {
      server.kill('SIGTERM')
      const { stopped: _s, ...stored } = JSON.parse(String((await out.next()).value)) as Record<string, number>
      return stored
    },
  }
}

/** A fresh server process, a warm-up, one measured run, then the server's own account of what it stored. */
async function measure(serverProcess: string, target: string): Promise<Measure> {
  const server = await startServerProcess(serverProcess, [target, secret])
  const url = `http://127.0.0.1:${server.port}/h/bench`
  // Targets named github-… take real GitHub deliveries (bench:receiver's schema verdict on and off).
  const delivery: LoadDelivery = target.startsWith('github-') ? 'github' : 'standard-webhooks'
  const warm = await load(url, WARMUP_S, delivery)
  const result = await load(url, DURATION_S, delivery)
  return { load: result, answered2xx: warm.ok2xx + result.ok2xx, stored: await server.stop() }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** Medians over the rounds of one target's runs: req/s, p99, and errors summed. */
export function summary(measures: readonly { load: Load }[]): { rps: number; p99: number; errors: number } {
  return {
    rps: median(measures.map((m) => m.load.rps)),
    p99: median(measures.map((m) => m.load.p99)),
    errors: measures.reduce((sum, m) => sum + m.load.non2xx + m.load.errors + m.load.timeouts, 0),
  }
}

/**
 * Ratio of `of` over `over` taken round by round (runs of a round are minutes apart at most, so
 * they share the machine's load of the moment), then the median over rounds.
 */
export const pairedRatio = (of: readonly { load: Load }[], over: readonly { load: Load }[]): number => median(of.map((m, i) => m.load.rps / (over[i]?.load.rps ?? Number.NaN)))

/** A Markdown table: a header, its rule, and rows; column 0 is padded right, the others left. */
export function markdownTable(widths: readonly number[], header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)]
}

/** Prints the table, then one JSON line: the bench, req/s and p99 per target, Hookloop's ratios, then `more`. */
export function printReport<T extends string>(bench: string, table: readonly string[], targets: readonly T[], of: (t: T) => { rps: number; p99: number }, ratios: { bare: number; mockttp: number }, more: Record<string, unknown>): void {
  process.stdout.write(table.join('\n') + '\n')
  const json = {
    bench,
    rps: Object.fromEntries(targets.map((t) => [t, Math.round(of(t).rps)])),
    p99_ms: Object.fromEntries(targets.map((t) => [t, of(t).p99])),
    ratio_vs_bare: Number(ratios.bare.toFixed(3)),
    ratio_vs_mockttp: Number(ratios.mockttp.toFixed(3)),
    ...more,
  }
  process.stdout.write(JSON.stringify(json) + '\n')
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
