// Three sender processes on one data folder send every due delivery exactly once: each claims a
// delivery before it sends (store/deliveries.ts). One killed with kill -9 mid-way has its claims
// taken over by the others; what it had in flight is recorded as interrupted and sent again, and
// nothing else is sent twice.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { makeTempDir } from '../../support/temp-dir'
import { startServer, type TestServer } from './support'

const EVENTS = 600

/** The child's stdout lines: a promise of its first line, and of its last once it exits. */
function outputOf(child: ChildProcess): { first: Promise<string>; last: Promise<string> } {
  let out = ''
  let firstSeen: (line: string) => void = () => undefined
  const first = new Promise<string>((r) => (firstSeen = r))
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    if (out.includes('\n')) firstSeen(out.slice(0, out.indexOf('\n')))
  })
  const last = new Promise<string>((r) => child.once('close', () => r(out.trim().split('\n').at(-1) ?? '')))
  return { first, last }
}

describe('claims: several senders on one data folder', () => {
  let outDir: string
  let temp: ReturnType<typeof makeTempDir>
  let server: TestServer | undefined

  beforeAll(async () => {
    mkdirSync(resolve('test-results'), { recursive: true })
    outDir = mkdtempSync(resolve('test-results', 'sender-claims-'))
    await build({
      configFile: false,
      logLevel: 'warn',
      build: { ssr: resolve('test/bench/team-drain-process.ts'), outDir, emptyOutDir: true, rollupOptions: { output: { entryFileNames: 'team-drain-process.mjs' } } },
    })
    temp = makeTempDir('hookloop-claims-')
  })
  afterAll(async () => {
    await server?.close()
    temp?.cleanup()
    rmSync(outDir, { recursive: true, force: true })
  })

  it.each([false, true])('three processes send each delivery once (one killed with kill -9: %s)', async (kill) => {
    const byEvent = new Map<string, number>()
    await server?.close()
    server = await startServer(createRealClock(), (req, res) => {
      const id = String(req.headers['webhook-id'])
      byEvent.set(id, (byEvent.get(id) ?? 0) + 1)
      // A little later, so attempts are in flight in every process at once.
      setTimeout(() => res.writeHead(200).end('ok'), 5)
    })
    const file = join(temp.dir, `claims-${kill}.db`)
    const child = join(outDir, 'team-drain-process.mjs')
    const run = (mode: string, n = '0') => spawn(process.execPath, [child, file, `${server!.url}/hook`, mode, n], { stdio: ['ignore', 'pipe', 'inherit'] })
    const seed = run('seed', String(EVENTS))
    await new Promise<void>((r) => seed.once('close', () => r()))
    expect(seed.exitCode).toBe(0)

    const drains = [run('drain'), run('drain'), run('drain')]
    const outputs = drains.map((d) => outputOf(d))
    for (const o of outputs) expect(await o.first).toBe('started')
    if (kill) {
      for (let i = 0; i < 2_000 && server.requests.length < EVENTS / 3; i++) await new Promise((r) => setTimeout(r, 5))
      drains[0]!.kill('SIGKILL')
    }
    const lines = await Promise.all(outputs.map((o) => o.last))
    for (const d of kill ? drains.slice(1) : drains) expect(d.exitCode).toBe(0)
    const started = lines.slice(kill ? 1 : 0).map((l) => (JSON.parse(l) as { started: number }).started)
    if (!kill) for (const n of started) expect(n).toBeGreaterThan(0)

    const db = new BetterSqlite3(file, { readonly: true })
    expect(db.prepare('SELECT status, COUNT(*) AS n FROM deliveries GROUP BY status').all()).toEqual([{ status: 'succeeded', n: EVENTS }])
    expect(db.prepare('SELECT COUNT(*) FROM deliveries WHERE in_flight = 1 OR claimed_by IS NOT NULL').pluck().get()).toBe(0)
    // Sent twice only where a dead process's attempt was cut short and recorded as interrupted.
    const interrupted = new Set(db.prepare("SELECT delivery_id FROM attempts WHERE outcome = 'interrupted'").pluck().all() as number[])
    const twice = db.prepare("SELECT delivery_id FROM attempts WHERE outcome != 'interrupted' GROUP BY delivery_id HAVING COUNT(*) > 1").pluck().all()
    expect(twice).toEqual([])
    const rows = db.prepare('SELECT COUNT(*) FROM attempts').pluck().get() as number
    const eventOf = db.prepare('SELECT event_id FROM deliveries WHERE id = ?').pluck()
    const interruptedEvents = new Set([...interrupted].map((id) => eventOf.get(id) as string))
    db.close()
    expect(byEvent.size).toBe(EVENTS)
    for (const [event, n] of byEvent) expect(n, event).toBe(interruptedEvents.has(event) ? n : 1)
    expect([...byEvent.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(rows)
    if (!kill) expect(interrupted.size).toBe(0)
  })
})
