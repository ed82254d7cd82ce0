// bench:scale — what grows with the store. The same measurements on a big store (1 000 000
// captured requests, 100 000 deliveries with 400 000 attempts) and a small one (1 000 requests,
// 100 deliveries, 400 attempts), in one run, reported as ratios big/small (the machine is shared:
// ratios hold where absolute figures drift). Per store, against a real `hookloop serve` on the
// seeded data folder: first paint of the built UI in headless Chromium; arrival-to-paint of a
// request sent while the app is open (p50 / p99); search by event id, filter by status, open an
// inspector and export 1 000 rows as HAR, each the command the UI sends over the control socket;
// the engine's RSS; the counts the UI shows (received rows, captured requests) as the timeline's
// total through the socket and as the store's query alone, beside the pass over requests that
// counted received rows before the counters (schema 12); then, with serve stopped, a retention
// pass that prunes the oldest 10 %.
// Not a timed test: it prints figures. Seeded stores are cached (scale-seed.ts).
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { createRealClock } from '../../electron/engine/clock'
import { createRetention } from '../../electron/engine/retention/retention'
import { createCountReads, createSqliteEngine, openDatabase } from '../../electron/engine/store'
import { timelineParts } from '../../electron/engine/store/timeline-reads'
import { connect, engineMemory, serve, stop, type Control } from './scale-control'
import { arrivalToPaint, firstPaint } from './scale-page'
import { seededDataFolder, type ScaleSize } from './scale-seed'

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']
const SIZES: Record<'small' | 'big', ScaleSize> = {
  small: { requests: 1_000, deliveries: 100 },
  big: { requests: Number(process.env.BENCH_SCALE_REQUESTS ?? 1_000_000), deliveries: Number(process.env.BENCH_SCALE_DELIVERIES ?? 100_000) },
}
const CACHE_DIR = process.env.BENCH_SCALE_CACHE ?? join(tmpdir(), 'hookloop-bench-scale')
const REPEATS = 15
const PAINTS = 3
const PROBES = Number(process.env.BENCH_SCALE_PROBES ?? 150)

interface Figures {
  seedMs: number
  cached: boolean
  firstPaintMs: number
  searchCapturedMs: number
  searchDeliveryMs: number
  filterStatusMs: number
  inspectDeliveryMs: number
  inspectRequestMs: number
  exportHarMs: number
  pruneMs: number
  pruneRows: number
  countPageMs: number
  countQueryMs: number
  countCapturedMs: number
  countScanMs: number
  receivedRows: number
  rssMb: number
  peakRssMb: number
  probeMs: number[]
  /** The uncertainty of aligning the page's clock with the bench's (half the shortest round trip). */
  clockErrorMs: number
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

async function timed(repeats: number, work: () => Promise<unknown>): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now()
    await work()
    samples.push(performance.now() - t0)
  }
  return median(samples)
}

/** What the steps look up, read from the seeded file before serve opens it: rows from the middle of the store. */
function targets(file: string) {
  const db = openDatabase({ file, notice: () => {}, withoutSecrets: true })
  try {
    const count = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0
    const requests = count('SELECT COUNT(*) FROM requests')
    const deliveries = count('SELECT COUNT(*) FROM deliveries')
    const middleRequest = db.prepare('SELECT id, dedupe_key FROM requests WHERE dedupe_key IS NOT NULL AND id >= ? ORDER BY id LIMIT 1').get(Math.floor(requests / 2)) as { id: number; dedupe_key: string }
    // The same shape in both stores: a failed delivery (eight attempts).
    const middleDelivery = db.prepare("SELECT id, event_id FROM deliveries WHERE id >= ? AND status = 'failed' ORDER BY id LIMIT 1").get(Math.floor(deliveries / 2)) as { id: number; event_id: string }
    // 900 requests and 100 deliveries spread evenly through the store: 1 000 rows to export.
    const spread = (n: number, of: number) => Array.from({ length: n }, (_, i) => 1 + Math.floor((i * of) / n))
    // The oldest tenth of the captures (the deliveries are spread over the same days).
    const tenth = db.prepare('SELECT received_at FROM requests ORDER BY received_at LIMIT 1 OFFSET ?').pluck().get(Math.floor(requests / 10)) as number
    return { middleRequest, middleDelivery, exportRequestIds: spread(900, requests), exportDeliveryIds: spread(100, deliveries), tenthAt: tenth }
  } finally {
    db.close()
  }
}

type Targets = ReturnType<typeof targets>

/** How the received rows were counted before the counters: one pass over requests_by_dedupe_key. */
const RECEIVED_ROWS_BY_SCAN = `SELECT COALESCE(SUM(CASE WHEN dedupe_key IS NULL THEN n ELSE 1 END), 0)
  FROM (SELECT r.dedupe_key, COUNT(*) AS n FROM requests r WHERE r.attempt_id IS NULL GROUP BY r.endpoint_id, r.dedupe_key)`

/** The counts' queries alone, in this process on the seeded file: the timeline's received rows and the top bar's requests, and the old pass. */
function countCosts(file: string): { countQueryMs: number; countCapturedMs: number; countScanMs: number; receivedRows: number } {
  const db = openDatabase({ file, notice: () => {}, withoutSecrets: true })
  try {
    const counted = timelineParts({ status: ['received'] }).received!.count
    const received = db.prepare(counted.sql).pluck()
    const scan = db.prepare(RECEIVED_ROWS_BY_SCAN).pluck()
    const counts = createCountReads(db)
    const receivedRows = received.get(...counted.params) as number
    const byScan = scan.get() as number
    if (byScan !== receivedRows) throw new Error(`the counters say ${receivedRows} received rows, a pass over requests ${byScan}`)
    const median = (work: () => unknown) => {
      const samples: number[] = []
      for (let i = 0; i < REPEATS; i++) {
        const t0 = performance.now()
        work()
        samples.push(performance.now() - t0)
      }
      return samples.sort((a, b) => a - b)[Math.floor((samples.length - 1) / 2)]!
    }
    return {
      countQueryMs: median(() => received.get(...counted.params)),
      countCapturedMs: median(() => counts.capturedRequests()),
      countScanMs: median(() => scan.get()),
      receivedRows,
    }
  } finally {
    db.close()
  }
}

/** Rows a filtered page asks for: as many as the small store has in every filter measured, so both stores build the same rows. */
const FILTERED_ROWS = 10

async function steps(control: Control, t: Targets) {
  const page = (filter: object) => control.call('timeline.page', { offset: 0, limit: FILTERED_ROWS, filter })
  return {
    searchCapturedMs: await timed(REPEATS, () => page({ search: t.middleRequest.dedupe_key })),
    searchDeliveryMs: await timed(REPEATS, () => page({ search: t.middleDelivery.event_id })),
    filterStatusMs: await timed(REPEATS, () => page({ status: ['failed'] })),
    // The received rows' total, as the UI asks for it (one row of the page, the count is the work).
    countPageMs: await timed(REPEATS, () => control.call('timeline.page', { offset: 0, limit: 1, filter: { status: ['received'] } })),
    inspectDeliveryMs: await timed(REPEATS, () => control.call('delivery.get', { id: t.middleDelivery.id })),
    inspectRequestMs: await timed(REPEATS, () => control.call('request.get', { id: t.middleRequest.id })),
    exportHarMs: await timed(3, () => control.call('export.selection', { requestIds: t.exportRequestIds, deliveryIds: t.exportDeliveryIds, format: 'har' })),
  }
}

/** A retention pass over the oldest tenth, as the schedule runs it (batches with rests between), in this process. */
async function pruneTenth(file: string, olderThanAt: number): Promise<{ ms: number; rows: number }> {
  const db = openDatabase({ file, notice: () => {}, withoutSecrets: true })
  const clock = createRealClock()
  const retention = createRetention({ engine: createSqliteEngine(db, { closeDatabase: false }), clock, timers: clock, firstPassMs: 2 ** 31 - 1 })
  try {
    const t0 = performance.now()
    const result = await retention.prune({ olderThanMs: Date.now() - olderThanAt })
    return { ms: performance.now() - t0, rows: result.deleted + result.deliveries + result.attempts + result.events }
  } finally {
    await retention.stop()
    db.close()
  }
}

async function measure(browser: Browser, label: string, size: ScaleSize, warmUp: boolean): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), `hookloop-bench-scale-${label}-`))
  try {
    const seeded = seededDataFolder(dataDir, size, CACHE_DIR)
    process.stderr.write(`${label}: ${seeded.cached ? 'store copied from the cache' : `seeded in ${(seeded.seedMs / 1000).toFixed(1)} s`}\n`)
    const file = join(dataDir, 'hookloop.db')
    const t = targets(file)
    const counts = countCosts(file)
    const served = await serve(dataDir)
    let figures: Omit<Figures, 'pruneMs' | 'pruneRows' | 'seedMs' | 'cached' | 'countQueryMs' | 'countCapturedMs' | 'countScanMs' | 'receivedRows'>
    try {
      // The first page Chromium opens pays for compiling the app's bundle: warm up once.
      if (warmUp) await (await firstPaint(browser, served.url)).page.context().close()
      const paints: number[] = []
      let open = null
      for (let i = 0; i < PAINTS; i++) {
        const painted = await firstPaint(browser, served.url)
        paints.push(painted.ms)
        if (i < PAINTS - 1) await painted.page.context().close()
        else open = painted.page
      }
      process.stderr.write(`${label}: first paint ${paints.map((ms) => ms.toFixed(0)).join(' / ')} ms\n`)
      const probes = await arrivalToPaint(open!, `${served.receiverUrl}/h/stripe`, PROBES, label)
      await open!.context().close()
      // The probes' rows are still being pushed and written for a moment: let the engine settle.
      await new Promise((r) => setTimeout(r, 2000))
      const control = await connect(served)
      const timings = await steps(control, t)
      control.close()
      const memory = engineMemory(served)
      figures = { firstPaintMs: median(paints), ...timings, rssMb: memory.rssMb, peakRssMb: memory.peakMb, probeMs: probes.samples, clockErrorMs: probes.clockErrorMs }
    } finally {
      await stop(served)
    }
    const pruned = await pruneTenth(file, t.tenthAt)
    return { ...figures, ...counts, seedMs: seeded.seedMs, cached: seeded.cached, pruneMs: pruned.ms, pruneRows: pruned.rows }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function run(): Promise<void> {
  const load = loadavg()
  const browser = await chromium.launch({ executablePath: process.env.HOOKLOOP_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS })
  let small: Figures
  let big: Figures
  try {
    small = await measure(browser, 'small', SIZES.small, true)
    big = await measure(browser, 'big', SIZES.big, false)
  } finally {
    await browser.close()
  }
  const ratio = (a: number, b: number) => b / a
  const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0))
  // The counters' reads take microseconds: three decimals, or they print as 0.0.
  const ms3 = (v: number) => (v < 10 ? v.toFixed(3) : v.toFixed(0))
  const lines: Array<[string, string, string, string, string]> = [
    ['first paint (ms)', ms(small.firstPaintMs), ms(big.firstPaintMs), ratio(small.firstPaintMs, big.firstPaintMs).toFixed(2), '≤ 3'],
    ['search: a captured event id (ms)', ms(small.searchCapturedMs), ms(big.searchCapturedMs), ratio(small.searchCapturedMs, big.searchCapturedMs).toFixed(2), '≤ 3'],
    ['search: a delivery event id (ms)', ms(small.searchDeliveryMs), ms(big.searchDeliveryMs), ratio(small.searchDeliveryMs, big.searchDeliveryMs).toFixed(2), '≤ 3'],
    [`filter: status failed, ${FILTERED_ROWS} rows (ms)`, ms(small.filterStatusMs), ms(big.filterStatusMs), ratio(small.filterStatusMs, big.filterStatusMs).toFixed(2), 'flat'],
    ['count: received rows, timeline.page total (ms)', ms(small.countPageMs), ms(big.countPageMs), ratio(small.countPageMs, big.countPageMs).toFixed(2), 'flat'],
    ['count: received rows, the query (ms)', ms3(small.countQueryMs), ms3(big.countQueryMs), ratio(small.countQueryMs, big.countQueryMs).toFixed(2), 'flat'],
    ['count: captured requests, the query (ms)', ms3(small.countCapturedMs), ms3(big.countCapturedMs), ratio(small.countCapturedMs, big.countCapturedMs).toFixed(2), 'flat'],
    ['count: received rows by a pass over requests, as before (ms)', ms3(small.countScanMs), ms3(big.countScanMs), ratio(small.countScanMs, big.countScanMs).toFixed(0), 'rows'],
    ['inspector: a delivery (ms)', ms(small.inspectDeliveryMs), ms(big.inspectDeliveryMs), ratio(small.inspectDeliveryMs, big.inspectDeliveryMs).toFixed(2), 'flat'],
    ['inspector: a request (ms)', ms(small.inspectRequestMs), ms(big.inspectRequestMs), ratio(small.inspectRequestMs, big.inspectRequestMs).toFixed(2), 'flat'],
    ['export 1 000 rows as HAR (ms)', ms(small.exportHarMs), ms(big.exportHarMs), ratio(small.exportHarMs, big.exportHarMs).toFixed(2), 'flat'],
    ['prune 10 % (ms)', ms(small.pruneMs), ms(big.pruneMs), ratio(small.pruneMs, big.pruneMs).toFixed(0), 'rows'],
    ['prune 10 %: µs per row deleted', ((small.pruneMs * 1000) / small.pruneRows).toFixed(0), ((big.pruneMs * 1000) / big.pruneRows).toFixed(0), ratio(small.pruneMs / small.pruneRows, big.pruneMs / big.pruneRows).toFixed(2), 'flat'],
    ['arrival → row painted p50 (ms)', ms(median(small.probeMs)), ms(median(big.probeMs)), ratio(median(small.probeMs), median(big.probeMs)).toFixed(2), 'flat'],
    ['arrival → row painted p99 (ms)', ms(percentile(small.probeMs, 99)), ms(percentile(big.probeMs, 99)), ratio(percentile(small.probeMs, 99), percentile(big.probeMs, 99)).toFixed(2), 'flat'],
    ['engine RSS (MB)', small.rssMb.toFixed(0), big.rssMb.toFixed(0), ratio(small.rssMb, big.rssMb).toFixed(2), ''],
    ['engine peak RSS (MB)', small.peakRssMb.toFixed(0), big.peakRssMb.toFixed(0), ratio(small.peakRssMb, big.peakRssMb).toFixed(2), ''],
  ]
  const header: [string, string, string, string, string] = ['step', `small (${SIZES.small.requests} req)`, `big (${SIZES.big.requests} req)`, 'big/small', 'goal']
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const row = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  const out = [
    `Scale benchmark: ${new Date().toISOString()}; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average at start ${load.map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}`,
    `big store: ${big.cached ? 'copied from the cache' : `seeded in ${(big.seedMs / 1000).toFixed(1)} s`}; medians of ${REPEATS} commands (export: 3; searches and the filter ask for ${FILTERED_ROWS} rows), ${PAINTS} first paints, ${PROBES} arrival-to-paint probes per store (clocks aligned to ±${Math.max(small.clockErrorMs, big.clockErrorMs).toFixed(2)} ms); prune rows: ${small.pruneRows} / ${big.pruneRows}; received rows: ${small.receivedRows} / ${big.receivedRows}`,
    '',
    row(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...lines.map(row),
  ]
  process.stdout.write(out.join('\n') + '\n')
  const round = (v: number) => Math.round(v * 100) / 100
  process.stdout.write(
    JSON.stringify({
      bench: 'scale',
      sizes: SIZES,
      seed_ms: big.seedMs,
      ...Object.fromEntries(lines.map(([name, a, b, r]) => [name.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '').toLowerCase(), { small: Number(a), big: Number(b), ratio: round(Number(r)) }])),
    }) + '\n',
  )
}

run().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exitCode = 1
})
