// bench:team's capture rates: requests answered 2xx per second by `hookloop serve` processes under
// bench:receiver's load generator (receiver-load-process: autocannon in a process of its own,
// signed Standard Webhooks messages to an endpoint that verifies and dedupes them, CONNECTIONS
// connections in all, split across the ports when there are two). Targets, each fresh per round,
// rounds interleaved and rotated (load-rig.ts) so a noisy neighbour hurts all alike:
// - folder: one serve on a data folder; postgres: one serve on a team's PostgreSQL;
// - postgres-two: two serve processes on one PostgreSQL database, the load split between them;
// - bare, bare-two: one and two bare node:http servers (bench:receiver's), the same split: what
//   two processes can gain on this machine, with the load generator on the same cores;
// - folder-accounts: the folder's serve with --accounts, its live client holding an API token.
// Every serve has a live client on its control socket, as a watching browser would.
// Each target is warmed up before it is measured, for TEAM_WARMUP_S seconds per process: the load
// split over two processes gives each half the requests a second, and a process that has seen
// fewer is still compiling its code when the measured run starts (at one second of warm-up, V8's
// compiler took 80 µs of CPU per captured request during the two processes' run against 22 for
// one). A team's serve processes run for days; the bench measures them warm.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestPostgres } from '../support/postgres'
import { CONNECTIONS, DURATION_S, ipc, median, ROUNDS, secret, startServerProcess, type Load } from './load-rig'
import { connect, stop, type Control, type Served } from './scale-control'
import { freshStore, type StoreKind } from './team-stores'
import { createApiToken, serveOn } from './team-serve'

export const CAPTURE_TARGETS = ['folder', 'postgres', 'postgres-two', 'bare', 'bare-two', 'folder-accounts'] as const
type Target = (typeof CAPTURE_TARGETS)[number]

export interface CaptureRun {
  /** Requests answered 2xx per second in the measured run, all ports together. */
  rps: number
  /** Answered 2xx, warm-up included, and the rows the store holds after the processes stopped (null for bare servers). */
  answered: number
  stored: number | null
  /** Non-2xx answers, errors and timeouts. */
  failed: number
}

/** What bench:receiver's Hookloop target makes: signatures verified, dedupe on webhook-id. */
export const ENDPOINT = { name: 'bench', slug: 'bench', scheme: 'standard-webhooks', secrets: [secret], dedupe: { type: 'header', name: 'webhook-id' } }

interface Started {
  urls: string[]
  /** Stops every process; the rows stored, or null. */
  stop(): Promise<number | null>
}

async function bare(count: number): Promise<Started> {
  const servers = await Promise.all(Array.from({ length: count }, () => startServerProcess('receiver-server-process', ['bare', secret])))
  return { urls: servers.map((s) => `http://127.0.0.1:${s.port}/h/bench`), stop: async () => (await Promise.all(servers.map((s) => s.stop())), null) }
}

/** A process answers the endpoint once its receiver knows it. */
async function answering(url: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    await res.arrayBuffer()
    if (res.status !== 404) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`${url} never knew the endpoint`)
}

async function served(kind: StoreKind, processes: number, accounts: boolean, postgres: TestPostgres | null): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-capture-'))
  const store = await freshStore(kind, dir, postgres)
  const keyFile = join(dir, 'team.key')
  const token = accounts ? await createApiToken(store.where, 'editor', keyFile) : undefined
  const servers: Served[] = []
  const clients: Control[] = []
  const stopAll = async () => {
    for (const client of clients) client.close()
    await Promise.all(servers.map(stop))
  }
  try {
    // The endpoint is made before the second process starts, which then starts knowing it: no
    // rate is measured while a receiver still waits for the definitions' notice.
    for (let i = 0; i < processes; i++) {
      servers.push(await serveOn(store.where, { keyFile, accounts }))
      clients.push(await connect(servers[i]!, token))
      if (i === 0) await clients[0]!.call('endpoint.create', ENDPOINT)
    }
    const urls = servers.map((s) => `${s.receiverUrl}/h/bench`)
    // The probes are stored too; they only make the stored count larger than the answered one.
    for (const url of urls) await answering(url)
    return {
      urls,
      stop: async () => {
        await stopAll()
        const rows = await store.count('SELECT COUNT(*) AS n FROM requests')
        rmSync(dir, { recursive: true, force: true })
        return rows
      },
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}

function start(target: Target, postgres: TestPostgres | null): Promise<Started> {
  switch (target) {
    case 'bare':
      return bare(1)
    case 'bare-two':
      return bare(2)
    case 'folder':
      return served('sqlite', 1, false, postgres)
    case 'folder-accounts':
      return served('sqlite', 1, true, postgres)
    case 'postgres':
      return served('postgres', 1, false, postgres)
    case 'postgres-two':
      return served('postgres', 2, false, postgres)
  }
}

/** Seconds of warm-up for each process of a target (see above). */
export const TEAM_WARMUP_S = Number(process.env.BENCH_TEAM_WARMUP_S ?? 3)

/** Load on every port at once, CONNECTIONS connections in all. */
export async function loadAll(urls: string[], durationS: number): Promise<Load[]> {
  const connections = Math.max(1, Math.round(CONNECTIONS / urls.length))
  return Promise.all(urls.map((url) => ipc<Load>('receiver-load-process.mjs', { url, connections, durationS, secret })))
}

async function measure(target: Target, postgres: TestPostgres | null): Promise<CaptureRun> {
  const started = await start(target, postgres)
  const warm = await loadAll(started.urls, TEAM_WARMUP_S * started.urls.length)
  const measured = await loadAll(started.urls, DURATION_S)
  const stored = await started.stop()
  const ok = (loads: Load[]) => loads.reduce((n, l) => n + l.ok2xx, 0)
  return {
    rps: Math.round(ok(measured) / DURATION_S),
    answered: ok(warm) + ok(measured),
    stored,
    failed: [...warm, ...measured].reduce((n, l) => n + l.non2xx + l.errors + l.timeouts, 0),
  }
}

export interface CaptureFigures {
  runs: Record<Target, CaptureRun[]>
  rps: Record<Target, number>
  pg_vs_sqlite: number
  two_vs_one: number
  bare_two_vs_one: number
  two_vs_one_of_limit: number
  auth_capture_ratio: number
  every_answer_stored: boolean
}

/** Medians over the rounds of ratios taken within each round, so both sides share its load. */
const paired = (rounds: number, ratio: (round: number) => number) => Number(median(Array.from({ length: rounds }, (_, r) => ratio(r))).toFixed(3))

export async function captureRates(postgres: TestPostgres | null): Promise<CaptureFigures> {
  const targets = CAPTURE_TARGETS.filter((t) => postgres || !t.startsWith('postgres'))
  const runs = Object.fromEntries(CAPTURE_TARGETS.map((t) => [t, [] as CaptureRun[]])) as Record<Target, CaptureRun[]>
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length]!
      runs[target].push(await measure(target, postgres))
    }
  }
  const rate = (t: Target, r: number) => runs[t][r]?.rps ?? Number.NaN
  return {
    runs,
    rps: Object.fromEntries(CAPTURE_TARGETS.map((t) => [t, median(runs[t].map((m) => m.rps))])) as Record<Target, number>,
    pg_vs_sqlite: paired(ROUNDS, (r) => rate('postgres', r) / rate('folder', r)),
    two_vs_one: paired(ROUNDS, (r) => rate('postgres-two', r) / rate('postgres', r)),
    bare_two_vs_one: paired(ROUNDS, (r) => rate('bare-two', r) / rate('bare', r)),
    two_vs_one_of_limit: paired(ROUNDS, (r) => rate('postgres-two', r) / rate('postgres', r) / (rate('bare-two', r) / rate('bare', r))),
    auth_capture_ratio: paired(ROUNDS, (r) => rate('folder-accounts', r) / rate('folder', r)),
    every_answer_stored: CAPTURE_TARGETS.every((t) => runs[t].every((m) => m.stored === null || m.stored >= m.answered)),
  }
}
