// bench:team's live lag: how long after one process stores a capture a client of another process
// sees it (the UI's own control socket, read here as the UI reads it). The capturing process
// answers once the row is committed, so the lag runs from that answer to the `timeline.upsert`.
// - On a data folder: `hookloop listen` captures, the app of `hookloop serve` on the same folder
//   pushes; serve learns of another writer by polling the file's data_version (host/timeline-watch.ts).
// - On a team's PostgreSQL: serve A captures, a client of serve B on the same database sees it;
//   B learns by LISTEN/NOTIFY.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { TestPostgres } from '../support/postgres'
import { connect, serve, stop, type Control } from './scale-control'
import { serveOn } from './team-serve'
import type { StoreKind } from './team-stores'

export interface LiveLag {
  store: StoreKind
  captures: number
  seen: number
  p50_ms: number
  p99_ms: number
  max_ms: number
}

interface Pair {
  /** Where the capturing process takes requests. */
  captureUrl: string
  /** A client of the other process. */
  watch: Control
  close(): Promise<void>
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

async function onFolder(dir: string): Promise<Pair> {
  const served = await serve(dir)
  const watch = await connect(served)
  await watch.call('snapshot', {}).catch(() => undefined)
  const listen = spawn(process.execPath, [resolve('out/main/cli.js'), 'listen', '--port', '0', '--data', dir], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  listen.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  while (!out.includes('Press Ctrl-C')) await new Promise((r) => setTimeout(r, 20))
  const port = Number(/Hookloop receiver on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1])
  return {
    captureUrl: `http://127.0.0.1:${port}/h/default`,
    watch,
    close: async () => {
      listen.kill('SIGINT')
      await new Promise((r) => listen.once('close', r))
      watch.close()
      await stop(served)
    },
  }
}

async function onPostgres(dir: string, postgres: TestPostgres): Promise<Pair> {
  const url = await postgres.freshDatabase()
  const keyFile = join(dir, 'team.key')
  const a = await serveOn(url, { keyFile })
  const onA = await connect(a)
  // Made before B starts: B would not learn of an endpoint made on A after it started (team-capture.ts).
  // Keyed on webhook-id, as the folder's default endpoint is: a row's event id is the probe's.
  await onA.call('endpoint.create', { name: 'lag', slug: 'lag', scheme: null, secrets: [], dedupe: { type: 'header', name: 'webhook-id' } })
  const b = await serveOn(url, { keyFile })
  const watch = await connect(b)
  await watch.call('snapshot', {}).catch(() => undefined)
  return {
    captureUrl: `${a.receiverUrl}/h/lag`,
    watch,
    close: async () => {
      onA.close()
      watch.close()
      await Promise.all([stop(a), stop(b)])
    },
  }
}

export async function liveLag(store: StoreKind, captures: number, gapMs: number, postgres: TestPostgres | null = null): Promise<LiveLag> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-lag-'))
  const answeredAt = new Map<string, number>()
  const seenAt = new Map<string, number>()
  try {
    if (store === 'postgres' && !postgres) throw new Error('no PostgreSQL for this run')
    const pair = store === 'sqlite' ? await onFolder(dir) : await onPostgres(dir, postgres!)
    pair.watch.onEvents((batch) => {
      const now = performance.now()
      for (const event of batch) {
        if (event.name !== 'timeline.upsert') continue
        for (const row of (event.payload as { rows: Array<{ eventId: string }> }).rows) if (!seenAt.has(row.eventId)) seenAt.set(row.eventId, now)
      }
    })
    try {
      for (let i = 0; i < captures; i++) {
        const id = `evt_lag_${i}`
        const response = await fetch(pair.captureUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': id }, body: JSON.stringify({ event_id: id, type: 'lag.probe' }) })
        await response.arrayBuffer()
        // The answer is sent once the row is committed: from here on the other process could see it.
        answeredAt.set(id, performance.now())
        await new Promise((r) => setTimeout(r, gapMs))
      }
      const deadline = performance.now() + 5_000
      while (seenAt.size < captures && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    } finally {
      await pair.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const lags = [...answeredAt].flatMap(([id, at]) => (seenAt.has(id) ? [Math.max(0, seenAt.get(id)! - at)] : [])).sort((a, b) => a - b)
  const round = (ms: number) => Number(ms.toFixed(1))
  return { store, captures, seen: lags.length, p50_ms: round(quantile(lags, 0.5)), p99_ms: round(quantile(lags, 0.99)), max_ms: round(lags.at(-1) ?? Number.NaN) }
}
