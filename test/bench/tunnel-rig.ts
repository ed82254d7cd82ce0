// Shared by the tunnel benchmarks (tunnel.ts, tunnel-focus.ts): the webhook they send, starting
// their processes, and one measured load run with Hookloop's CPU time and tunnel sockets around it.
import { fork, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)
export const BODY = JSON.stringify({
  event_id: '5f0c2a8e-9b1d-4c3e-8f7a-6b5d4c3b2a19',
  event_type: 'booking.created',
  payload: { booking_id: 'bk_12345', clinic_id: 'cl_678', patient: { name: 'Jan Kowalski' }, starts_at: '2026-12-01T09:30:00Z', notes: 'x'.repeat(300) },
})

export interface LoadResult {
  ok2xx: number
  non2xx: number
  errors: number
  timeouts: number
  durationS: number
  p50: number
  p99: number
  /** CPU time of Hookloop's process (receiver + tunnel) per 2xx answer, µs. */
  cpuUsPerRequest?: number
  /** Tunnel sockets handed to Hookloop's receiver per 2xx answer (new sockets the server took). */
  socketsPerRequest?: number
  /** CPU time of the tunnel server's process per 2xx answer, µs (the real server only). */
  serverCpuUsPerRequest?: number
}

/** Forks a bundled benchmark process and waits for its first message (it is ready). */
export function start<T>(file: string, args: string[], env: NodeJS.ProcessEnv = process.env, execArgv: string[] = []): Promise<{ child: ChildProcess; message: T }> {
  const child = fork(join(here, file), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env, execArgv })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, message: message as T }))
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)))
  })
}

interface AppCounters {
  cpuUs: number
  /** Tunnel sockets handed to the receiver so far (0 when relayed). */
  handed: number
}

function appCounters(app: ChildProcess): Promise<AppCounters> {
  return new Promise((resolve) => {
    const onMessage = (m: Partial<AppCounters>) => {
      if (m.cpuUs === undefined) return
      app.off('message', onMessage)
      resolve({ cpuUs: m.cpuUs, handed: m.handed ?? 0 })
    }
    app.on('message', onMessage)
    app.send('cpu')
  })
}

function serverCpu(server: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: { serverCpuUs?: number }) => {
      if (m.serverCpuUs === undefined) return
      server.off('message', onMessage)
      resolve(m.serverCpuUs)
    }
    server.on('message', onMessage)
    server.send('cpu')
  })
}

/**
 * One autocannon run in its own process; with `app`, Hookloop's counters around it, and with
 * `server` (the real server's process), that server's CPU time.
 */
export async function load(url: string, host: string | undefined, durationS: number, app?: ChildProcess, server?: ChildProcess): Promise<LoadResult> {
  const job = { url, host, connections: CONNECTIONS, durationS, body: BODY }
  const before = app ? await appCounters(app) : undefined
  const serverBefore = server ? await serverCpu(server) : 0
  const { child, message } = await start<LoadResult>('tunnel-load-process.mjs', [JSON.stringify(job)])
  child.disconnect()
  if (app && before && message.ok2xx > 0) {
    const after = await appCounters(app)
    message.cpuUsPerRequest = Math.round((after.cpuUs - before.cpuUs) / message.ok2xx)
    message.socketsPerRequest = Math.round(((after.handed - before.handed) / message.ok2xx) * 100) / 100
  }
  if (server && message.ok2xx > 0) message.serverCpuUsPerRequest = Math.round(((await serverCpu(server)) - serverBefore) / message.ok2xx)
  return message
}

export const rps = (r: LoadResult | undefined) => (r ? Math.round(r.ok2xx / r.durationS) : 0)

/** The run with the median req/s. */
export function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.ok2xx / a.durationS - b.ok2xx / b.durationS)
  return sorted[Math.floor(sorted.length / 2)] as LoadResult
}

export const ratioOf = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 100) / 100)

/** The median of plain numbers (0 for none). */
export function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}
