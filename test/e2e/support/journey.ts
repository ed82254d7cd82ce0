// A working day in miniature: one file, one headless Chromium, one data folder that every process
// of the day (`serve`, `listen`, `run`, `trigger`) shares, and the store opened read-only beside
// them so what the screen shows is checked against a direct count in SQLite. Screenshots of the
// key moments go to /tmp/journeys/ (HOOKLOOP_JOURNEY_SHOTS to move them).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import Database from 'better-sqlite3'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { openApp } from './app'
import { openBrowser, ready, type Browser } from './browser'
import { CLI, startServe, type Served, type ServeOptions } from './serve'

export const SHOTS = process.env.HOOKLOOP_JOURNEY_SHOTS ?? join(tmpdir(), 'journeys')

/** A screenshot of the whole page at a key moment, for a person to look at. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true })
  const path = join(SHOTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

interface Stoppable {
  stop(): Promise<void>
}

export interface Journey {
  readonly page: Page
  /** The day's data folder (`hookloop.db` inside), shared by every process started here. */
  readonly data: string
  /** A scratch folder for files the day writes (configs, downloads, scenarios). */
  readonly work: string
  /** `hookloop serve` on the day's data folder, the app opened on it in the page. */
  serve(options?: Omit<ServeOptions, 'dataDir'>): Promise<Served>
  /** `hookloop listen --data <day's folder>` with the given config, on a free port. */
  listen(config: object): Promise<Listening>
  /** The store, read-only, as it is now on disk. */
  store(): Store
  /** Stopped (in reverse order) when the journey ends, whatever happened. */
  track<T extends Stoppable>(thing: T): T
}

/** One journey per file: the browser, the folders, and everything started is cleaned up after. */
export function journey(name: string, options: { timeoutMs?: number } = {}): Journey {
  let browser: Browser | undefined
  let data: string | undefined
  let work: string | undefined
  const running: Stoppable[] = []
  beforeAll(async () => {
    browser = await openBrowser()
    browser.page.setDefaultTimeout(options.timeoutMs ?? 20_000)
    data = mkdtempSync(join(tmpdir(), `hookloop-journey-${name}-data-`))
    work = mkdtempSync(join(tmpdir(), `hookloop-journey-${name}-work-`))
  })
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && browser) await shot(browser.page, `${name}-FAILED`).catch(() => undefined)
  })
  afterAll(async () => {
    // A stop that hangs must not keep the folders (and the browser) from being cleaned up.
    const bounded = (stop: Promise<void>) => Promise.race([stop.catch(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref())])
    for (const thing of running.splice(0).reverse()) await bounded(thing.stop())
    await browser?.close()
    for (const folder of [data, work]) if (folder) rmSync(folder, { recursive: true, force: true })
  })
  const day: Journey = {
    get page() { return ready(browser, 'the browser opens in the journey’s beforeAll').page },
    get data() { return ready(data, 'the data folder is made in the journey’s beforeAll') },
    get work() { return ready(work, 'the work folder is made in the journey’s beforeAll') },
    async serve(serveOptions = {}) {
      const served = day.track(await startServe([], { ...serveOptions, dataDir: day.data }))
      await openApp(day.page, served.url)
      return served
    },
    async listen(config) {
      const file = join(day.work, `listen-${running.length}.json`)
      writeFileSync(file, JSON.stringify(config))
      return day.track(await startListen(['--data', day.data, '--config', file, '--port', '0']))
    },
    store() {
      return openStore(day.data)
    },
    track(thing) {
      running.push(thing)
      return thing
    },
  }
  return day
}

export interface Listening extends Stoppable {
  /** http://127.0.0.1:<port> of the receiver. */
  url: string
  output: string[]
  process: ChildProcess
}

/** `hookloop listen …` as a real process; ready once it prints "Press Ctrl-C to stop.". */
export async function startListen(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Listening> {
  const child = spawn(process.execPath, [CLI, 'listen', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env })
  const output: string[] = []
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  const lines = createInterface({ input: child.stdout! })
  const ready = new Promise<string>((resolve, reject) => {
    let url = ''
    lines.on('line', (line) => {
      output.push(line)
      const found = /^Hookloop receiver on (http:\/\/\S+)/.exec(line)
      if (found?.[1]) url = found[1]
      if (line === 'Press Ctrl-C to stop.') resolve(url)
    })
    child.once('exit', (code) => reject(new Error(`hookloop listen exited (${code}) before it was ready:\n${output.join('\n')}`)))
  })
  const url = await ready
  return {
    url,
    output,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

export interface Store {
  /** The single number a COUNT(*) (or any one-value query) gives. */
  count(sql: string, ...params: unknown[]): number
  all<T>(sql: string, ...params: unknown[]): T[]
  close(): void
}

/** `<data>/hookloop.db`, read-only: the test looks, never writes. */
export function openStore(dataDir: string): Store {
  const db = new Database(join(dataDir, 'hookloop.db'), { readonly: true, fileMustExist: true })
  return {
    count(sql, ...params) {
      const row = db.prepare(sql).raw().get(...params) as unknown[] | undefined
      return Number(row?.[0] ?? 0)
    },
    all<T>(sql: string, ...params: unknown[]) {
      return db.prepare(sql).all(...params) as T[]
    },
    close() {
      db.close()
    },
  }
}

/** Reads the store once and closes it again: the processes of the day keep writing. */
export function withStore<T>(dataDir: string, read: (store: Store) => T): T {
  const store = openStore(dataDir)
  try {
    return read(store)
  } finally {
    store.close()
  }
}

export interface ScreenRow {
  key: string
  eventId: string
  status: string
  attempts: number
  /** The marks' labels in order ("503", "200" …), a counted mark's once per request it stands for ('' for a dot). */
  marks: string[]
  /** Arrivals beyond the first, as the row's duplicate badge says (0 without a badge). */
  duplicates: number
  signature: string | null
}

/** Every timeline row in the DOM, as the screen shows it. */
export function screenRows(page: Page): Promise<ScreenRow[]> {
  return page.locator('[data-testid=timeline-row]').evaluateAll((rows) =>
    rows.map((row) => ({
      key: row.getAttribute('data-key') ?? '',
      eventId: row.getAttribute('data-event-id') ?? '',
      status: row.getAttribute('data-status') ?? '',
      attempts: Number(row.getAttribute('data-attempts')),
      // A counted mark ("503 ×3": requests too close to tell apart at this zoom) stands for each of them.
      marks: [...row.querySelectorAll('.mark[data-tone]')].flatMap((m) => {
        const count = Number(m.getAttribute('data-count') ?? 1)
        return count > 1 ? Array.from({ length: count }, () => m.getAttribute('data-label') ?? '') : [(m.textContent ?? '').trim()]
      }),
      duplicates: Number(row.querySelector('[data-duplicates]')?.getAttribute('data-duplicates') ?? 0),
      signature: row.querySelector('[data-signature]')?.getAttribute('data-signature') ?? null,
    })),
  )
}

/**
 * Picks a clock in the timeline's clock picker, as a person would, and waits until the axis reads
 * on it: `'wall'` (live traffic) or a simulation's id. `''` (every clock) groups the rows one axis
 * per clock, or reads the one clock they share.
 */
export async function showClock(page: Page, clock: string): Promise<void> {
  await page.selectOption('[data-testid=clock-select]', clock)
  if (clock !== '') await page.waitForSelector(`[data-testid=timeline-clock][data-clock="${clock}"]`)
}

/** The toolbar's "N rows". */
export async function screenRowCount(page: Page): Promise<number> {
  const text = await page.locator('[data-testid=row-count]').innerText()
  const found = /^([\d,]+) rows?/.exec(text)
  if (!found?.[1]) throw new Error(`the row count reads "${text}"`)
  return Number(found[1].replace(/,/g, ''))
}

/** The rows picked for export (Ctrl/⌘-click) as the toolbar counts them. */
export async function screenPicked(page: Page): Promise<number> {
  const counted = page.locator('[data-testid=selection-count]')
  if ((await counted.count()) > 0) return Number(await counted.getAttribute('data-count'))
  const found = /· ([\d,]+) picked/.exec(await page.locator('[data-testid=row-count]').innerText())
  return found?.[1] ? Number(found[1].replace(/,/g, '')) : 0
}

/** A subscription card's numbers (NaN while one shows a spinner, or a dash) and its 24 h badge, as shown. */
export async function screenCard(page: Page, name: string): Promise<{ metrics: Record<string, number>; badge: string; red: boolean }> {
  const card = page.locator('[data-testid=subscription-card]', { has: page.locator(`h3:text-is("${name}")`) })
  await card.waitFor()
  const metrics = await card.locator('[data-metric]').evaluateAll((els) =>
    Object.fromEntries(els.map((e) => [e.getAttribute('data-metric') ?? '', ((text) => (text === '' ? Number.NaN : Number(text)))((e.querySelector('.value')?.textContent ?? '').replace(/[^\d]/g, ''))])),
  )
  const badge = card.locator('[data-testid=failure-rate]')
  return { metrics, badge: await badge.innerText(), red: (await badge.getAttribute('data-red')) === 'true' }
}

/** "HH:MM:SS" of a wall time, as the timeline's marks print it (local time, like the page). */
export function clockText(ms: number): string {
  const d = new Date(ms)
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':')
}

/**
 * Waits until `ready` holds, at most `timeoutMs`; says whether it did. For waits whose failure the
 * soft assertions after them report in full (what the screen showed instead), not a timing check.
 */
export async function settle(ready: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs
  for (;;) {
    if (await ready()) return true
    if (Date.now() > until) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The timeline axis's tick labels, left to right. */
export function axisLabels(page: Page): Promise<string[]> {
  return page.locator('[data-testid=timeline] .tl-axis .tick').allInnerTexts()
}

/**
 * Pairs of a row's marks and labels (attempt marks, wait labels, the app's line) whose boxes
 * intersect on screen, each named by its text: a person cannot read either of them.
 */
export function overlappingPieces(page: Page, rowSelector: string): Promise<string[]> {
  return page.locator(rowSelector).first().evaluate((row) => {
    const pieces = [...row.querySelectorAll('.tl-track .mark, .tl-track .wait-label, .tl-track [data-testid=app-saw]')].map((el) => ({ text: (el.textContent ?? '').trim(), box: el.getBoundingClientRect() }))
    const found: string[] = []
    for (let i = 0; i < pieces.length; i++) {
      for (let j = i + 1; j < pieces.length; j++) {
        const a = pieces[i]!.box
        const b = pieces[j]!.box
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) found.push(`"${pieces[i]!.text}" × "${pieces[j]!.text}"`)
      }
    }
    return found
  })
}
