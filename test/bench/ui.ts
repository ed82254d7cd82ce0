// bench:ui — how the UI holds up with a big store and under a flood. For 1 000 and 100 000
// deliveries (about four attempts each) written to a fresh store: time from opening the app to the
// first painted timeline, DOM rows rendered while scrolling (bounded by virtualization), frames per
// second while scrolling for three seconds, and the JS heap. Then, with the app open, a separate
// process POSTs 1 000 requests/s to the receiver while the page keeps scrolling: frames per second
// and the longest frame. Not a timed test: it prints figures.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import WebSocket from 'ws'
import { POLICY_PRESETS } from '../../shared/sender'
import { openDatabase } from '../../electron/engine/store'

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']
const OFFSETS = [0, 120_000, 360_000, 840_000]

function seed(dataDir: string, deliveries: number): void {
  const db = openDatabase({ file: join(dataDir, 'hookloop.db') })
  const now = Date.now()
  const start = now - deliveries * 1000 - 900_000
  db.prepare(
    `INSERT INTO subscriptions (id, name, url, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('bench', 'Bench', 'http://127.0.0.1:9/hooks', 'standard-webhooks', '[]', ?, ?, ?)`,
  ).run(JSON.stringify(POLICY_PRESETS.pandoktorek), start, start)
  const event = db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES (?, ?, ?, ?)`)
  const delivery = db.prepare(
    `INSERT INTO deliveries (event_id, subscription_id, status, attempts, last_status_code, last_attempt_at, next_attempt_at, created_at, updated_at) VALUES (?, 'bench', ?, 4, ?, ?, NULL, ?, ?)`,
  )
  const attempt = db.prepare(
    `INSERT INTO attempts (delivery_id, n, started_at, duration_ms, outcome, status_code, decision, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const fill = db.transaction(() => {
    for (let i = 0; i < deliveries; i++) {
      const id = randomUUID()
      const at = start + i * 1000
      const failed = i % 10 === 9
      const type = i % 3 === 0 ? 'booking.created' : i % 3 === 1 ? 'booking.updated' : 'booking.cancelled'
      event.run(id, type, Buffer.from(JSON.stringify({ event_id: id, event_type: type, payload: { i } })), at)
      const last = failed ? 410 : 200
      const d = delivery.run(id, failed ? 'failed' : 'succeeded', last, at + OFFSETS[3]!, at, at + OFFSETS[3]!)
      for (let n = 1; n <= 4; n++) {
        const code = n < 4 ? 503 : last
        const decision = n < 4 ? 'retry' : failed ? 'failed' : 'succeeded'
        attempt.run(d.lastInsertRowid, n, at + OFFSETS[n - 1]!, 12 + (i % 40), `http_${code}`, code, decision, n < 4 ? at + OFFSETS[n]! : null)
      }
    }
  })
  fill()
  db.close()
}

interface Served {
  child: ChildProcess
  url: string
  receiverUrl: string
}

async function serve(dataDir: string): Promise<Served> {
  const cli = resolve('out/main/cli.js')
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines: string[] = []
  const rl = createInterface({ input: child.stdout! })
  await new Promise<void>((done, fail) => {
    rl.on('line', (line) => {
      lines.push(line)
      if (lines.some((l) => l.startsWith('Webhook receiver: '))) done()
    })
    child.once('exit', (code) => fail(new Error(`hookloop serve exited (${code})`)))
  })
  const receiverUrl = /Webhook receiver: (http:\/\/[^/\s]+)/.exec(lines.join('\n'))?.[1] ?? ''
  return { child, url: lines[0] ?? '', receiverUrl }
}

async function stop(served: Served): Promise<void> {
  if (served.child.exitCode !== null) return
  const exited = new Promise((r) => served.child.once('exit', r))
  served.child.kill('SIGTERM')
  await exited
}

/** Scrolls the timeline for `ms`, one step per frame; frame gaps and the most rows in the DOM. */
const SCROLL_SCRIPT = (ms: number, step: number) => `(async () => {
  const viewport = document.querySelector('[data-testid=timeline-viewport]')
  const frames = []
  let maxRows = 0
  const start = performance.now()
  let last = start
  await new Promise((done) => {
    const tick = (now) => {
      frames.push(now - last)
      last = now
      maxRows = Math.max(maxRows, document.querySelectorAll('[data-testid=timeline-row]').length)
      viewport.scrollTop += ${step}
      if (now - start < ${ms}) requestAnimationFrame(tick)
      else done()
    }
    requestAnimationFrame(tick)
  })
  frames.shift()
  const total = frames.reduce((a, b) => a + b, 0)
  return { fps: frames.length / (total / 1000), maxFrameMs: Math.max(...frames), maxRows, rowsLoaded: Number(document.querySelector('[data-testid=row-count]')?.textContent?.replace(/[^0-9]/g, '') ?? 0) }
})()`

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
  await cdp.detach()
  return usage.usedSize / 1024 / 1024
}

interface Figures {
  firstPaintMs: number
  scrollFps: number
  maxFrameMs: number
  domRowsMax: number
  heapMb: number
}

async function measure(browser: Browser, served: Served): Promise<{ figures: Figures; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const page = await context.newPage()
  const t0 = Date.now()
  await page.goto(served.url)
  await page.waitForSelector('[data-testid=timeline-row]', { timeout: 120_000 })
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
  const firstPaintMs = Date.now() - t0
  const scroll = (await page.evaluate(SCROLL_SCRIPT(3000, 120))) as { fps: number; maxFrameMs: number; maxRows: number }
  return { figures: { firstPaintMs, scrollFps: scroll.fps, maxFrameMs: scroll.maxFrameMs, domRowsMax: scroll.maxRows, heapMb: await heapMb(page) }, page }
}

async function createFloodEndpoint(url: string): Promise<string> {
  const { origin, hash } = new URL(url)
  const token = new URLSearchParams(hash.slice(1)).get('token') ?? ''
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/control?token=${token}`, { headers: { origin } })
  await new Promise((r) => ws.once('open', r))
  const answer = new Promise<{ slug: string }>((done, fail) =>
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { t: string; ok?: boolean; res?: { slug: string }; error?: { message: string } }
      if (frame.t !== 'res') return
      if (frame.ok && frame.res) done(frame.res)
      else fail(new Error(frame.error?.message ?? 'endpoint.create failed'))
    }),
  )
  ws.send(JSON.stringify({ t: 'cmd', id: 1, name: 'endpoint.create', req: { name: 'flood', scheme: null, secrets: [], dedupe: { type: 'header', name: 'webhook-id' } } }))
  const endpoint = await answer
  ws.close()
  return endpoint.slug
}

async function flood(page: Page, served: Served): Promise<{ fps: number; maxFrameMs: number; sent: number; rps: number }> {
  const slug = await createFloodEndpoint(served.url)
  const here = dirname(fileURLToPath(import.meta.url))
  const child = spawn(process.execPath, [join(here, 'ui-flood-process.mjs'), `${served.receiverUrl}/h/${slug}`, '1000', '4'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const report = new Promise<{ sent: number; ok: number; seconds: number }>((done) => createInterface({ input: child.stdout! }).once('line', (line) => done(JSON.parse(line))))
  await new Promise((r) => setTimeout(r, 500))
  const frames = (await page.evaluate(SCROLL_SCRIPT(3000, 40))) as { fps: number; maxFrameMs: number }
  const sent = await report
  return { fps: frames.fps, maxFrameMs: frames.maxFrameMs, sent: sent.sent, rps: sent.ok / sent.seconds }
}

async function run(): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.HOOKLOOP_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS })
  const results: Record<string, Figures> = {}
  let floodFigures: { fps: number; maxFrameMs: number; sent: number; rps: number } | null = null
  try {
    for (const [label, count] of [['1k', 1_000], ['100k', 100_000]] as const) {
      const dataDir = mkdtempSync(join(tmpdir(), `hookloop-bench-ui-${label}-`))
      const seeded = Date.now()
      seed(dataDir, count)
      process.stderr.write(`seeded ${count} deliveries (${count * 4} attempts) in ${Date.now() - seeded} ms\n`)
      const served = await serve(dataDir)
      try {
        // The first page Chromium opens pays for compiling the app's bundle: warm up once.
        if (label === '1k') await (await measure(browser, served)).page.context().close()
        const { figures, page } = await measure(browser, served)
        results[label] = figures
        if (label === '1k') floodFigures = await flood(page, served)
        await page.context().close()
      } finally {
        await stop(served)
        rmSync(dataDir, { recursive: true, force: true })
      }
    }
  } finally {
    await browser.close()
  }
  const small = results['1k']!
  const big = results['100k']!
  const row = (name: string, a: string, b: string) => `${name.padEnd(26)} ${a.padStart(10)} ${b.padStart(10)}`
  console.log(row('', '1k', '100k'))
  console.log(row('first painted timeline ms', small.firstPaintMs.toFixed(0), big.firstPaintMs.toFixed(0)))
  console.log(row('scroll frames/s', small.scrollFps.toFixed(1), big.scrollFps.toFixed(1)))
  console.log(row('longest frame ms', small.maxFrameMs.toFixed(1), big.maxFrameMs.toFixed(1)))
  console.log(row('DOM rows (max)', String(small.domRowsMax), String(big.domRowsMax)))
  console.log(row('JS heap MB', small.heapMb.toFixed(1), big.heapMb.toFixed(1)))
  if (floodFigures) {
    console.log(
      `flood: ${floodFigures.sent} requests at ${floodFigures.rps.toFixed(0)}/s answered; meanwhile ${floodFigures.fps.toFixed(1)} frames/s, longest frame ${floodFigures.maxFrameMs.toFixed(1)} ms`,
    )
  }
  const summary = {
    bench: 'ui',
    first_paint_ms: { '1k': Math.round(small.firstPaintMs), '100k': Math.round(big.firstPaintMs) },
    first_paint_ratio: Math.round((big.firstPaintMs / small.firstPaintMs) * 100) / 100,
    dom_rows_max: Math.max(small.domRowsMax, big.domRowsMax),
    scroll_fps: Math.round(Math.min(small.scrollFps, big.scrollFps) * 10) / 10,
    heap_mb: Math.round(Math.max(small.heapMb, big.heapMb) * 10) / 10,
    flood: floodFigures ? { rps: Math.round(floodFigures.rps), fps: Math.round(floodFigures.fps * 10) / 10, max_frame_ms: Math.round(floodFigures.maxFrameMs) } : null,
  }
  console.log(JSON.stringify(summary))
}

run().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exitCode = 1
})
