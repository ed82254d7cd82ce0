// bench:team's live lag: how long after one process stores a capture a client of another process
// sees it. Today on one SQLite data folder: `hookloop listen` captures (its answer is sent once the
// row is committed) and the app of `hookloop serve` on the same folder pushes the row to its
// browser (the UI's own control socket, read here as the UI reads it). The serve process learns of
// another writer by polling the file's data_version (host/timeline-watch.ts).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { connect, serve, stop } from './scale-control'

export interface LiveLag {
  store: 'sqlite'
  captures: number
  seen: number
  p50_ms: number
  p99_ms: number
  max_ms: number
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

export async function liveLag(captures: number, gapMs: number): Promise<LiveLag> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-lag-'))
  const served = await serve(dir)
  const control = await connect(served)
  const seenAt = new Map<string, number>()
  control.onEvents((batch) => {
    const now = performance.now()
    for (const event of batch) {
      if (event.name !== 'timeline.upsert') continue
      for (const row of (event.payload as { rows: Array<{ eventId: string }> }).rows) if (!seenAt.has(row.eventId)) seenAt.set(row.eventId, now)
    }
  })
  await control.call('snapshot', {}).catch(() => undefined)
  const listen = spawn(process.execPath, [resolve('out/main/cli.js'), 'listen', '--port', '0', '--data', dir], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  listen.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  while (!out.includes('Press Ctrl-C')) await new Promise((r) => setTimeout(r, 20))
  const port = Number(/Hookloop receiver on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1])
  const answeredAt = new Map<string, number>()
  try {
    for (let i = 0; i < captures; i++) {
      const id = `evt_lag_${i}`
      const response = await fetch(`http://127.0.0.1:${port}/h/default`, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': id }, body: JSON.stringify({ event_id: id, type: 'lag.probe' }) })
      await response.arrayBuffer()
      // The answer is sent once the row is committed: from here on the other process could see it.
      answeredAt.set(id, performance.now())
      await new Promise((r) => setTimeout(r, gapMs))
    }
    const deadline = performance.now() + 5_000
    while (seenAt.size < captures && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  } finally {
    listen.kill('SIGINT')
    await new Promise((r) => listen.once('close', r))
    control.close()
    await stop(served)
    rmSync(dir, { recursive: true, force: true })
  }
  const lags = [...answeredAt].flatMap(([id, at]) => (seenAt.has(id) ? [Math.max(0, seenAt.get(id)! - at)] : [])).sort((a, b) => a - b)
  const round = (ms: number) => Number(ms.toFixed(1))
  return { store: 'sqlite', captures, seen: lags.length, p50_ms: round(quantile(lags, 0.5)), p99_ms: round(quantile(lags, 0.99)), max_ms: round(lags.at(-1) ?? Number.NaN) }
}
