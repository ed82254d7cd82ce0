import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { makeTempDir } from '../../support/temp-dir'
import { linkedAttemptId, startServer, type TestServer } from './support'

// A sender process with 1 000 deliveries pending is killed with SIGKILL mid-delivery; a new
// process on the same SQLite file must bring every delivery to a final state, retrying what was
// in flight (at-least-once), and every attempt the receiver saw must still have its row.

const EVENTS = 1000

function lines(child: ChildProcess): AsyncIterableIterator<string> {
  let buffer = ''
  const queue: string[] = []
  let wake: (() => void) | undefined
  let ended = false
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    let i: number
    while ((i = buffer.indexOf('\n')) >= 0) {
      queue.push(buffer.slice(0, i))
      buffer = buffer.slice(i + 1)
    }
    wake?.()
  })
  child.on('close', () => {
    ended = true
    wake?.()
  })
  return (async function* () {
    for (;;) {
      if (queue.length > 0) yield queue.shift() as string
      else if (ended) return
      else await new Promise<void>((r) => (wake = r))
    }
  })()
}

describe.each(['inline', 'thread'] as const)('kill -9 and restart, attempt writes %s', (writer) => {
  let outDir: string
  let temp: ReturnType<typeof makeTempDir>
  let server: TestServer

  beforeAll(async () => {
    mkdirSync(resolve('test-results'), { recursive: true })
    outDir = mkdtempSync(resolve('test-results', 'sender-crash-'))
    await build({
      configFile: false,
      logLevel: 'warn',
      build: { ssr: resolve('test/integration/sender/crash-child.ts'), outDir, emptyOutDir: true, rollupOptions: { output: { entryFileNames: 'crash-child.mjs' } } },
    })
    temp = makeTempDir('hookloop-crash-')
  })
  afterAll(async () => {
    await server?.close()
    temp?.cleanup()
    rmSync(outDir, { recursive: true, force: true })
  })

  it('every delivery reaches a final state and no attempt row is lost', async () => {
    const seenFirst = new Set<string>()
    const succeededEvents = new Set<string>()
    const attemptIds: number[] = []
    server = await startServer(createRealClock(), (req, res) => {
      const id = String(req.headers['webhook-id'])
      attemptIds.push(linkedAttemptId(req.headers) ?? Number.NaN)
      if (!seenFirst.has(id)) {
        seenFirst.add(id)
        res.writeHead(503).end()
        return
      }
      // Answer a little later, so attempts are in flight when the kill comes.
      setTimeout(() => {
        succeededEvents.add(id)
        res.writeHead(200).end('ok')
      }, 5)
    })
    const file = join(temp.dir, 'hookloop.db')
    const child = join(outDir, 'crash-child.mjs')

    const first = spawn(process.execPath, [child, file, `${server.url}/hook`, 'fresh', String(EVENTS), writer], { stdio: ['ignore', 'pipe', 'inherit'] })
    const firstLines = lines(first)
    expect((await firstLines.next()).value).toBe('started')
    // Kill once a good part has gone out (bounded: the child cannot finish 2 000 attempts unseen).
    for (let i = 0; i < 2_000 && server.requests.length < 700; i++) await new Promise((r) => setTimeout(r, 10))
    first.kill('SIGKILL')
    await new Promise<void>((r) => first.once('close', () => r()))
    const seenBeforeKill = server.requests.length
    expect(seenBeforeKill).toBeGreaterThan(0)

    const second = spawn(process.execPath, [child, file, `${server.url}/hook`, 'resume', '0', writer], { stdio: ['ignore', 'pipe', 'inherit'] })
    const summary = JSON.parse((await lines(second).next()).value as string) as { recovered: number }
    await new Promise<void>((r) => second.once('close', () => r()))
    expect(second.exitCode).toBe(0)

    const db = new BetterSqlite3(file, { readonly: true })
    const statuses = db.prepare('SELECT status, COUNT(*) AS n FROM deliveries GROUP BY status').all() as Array<{ status: string; n: number }>
    expect(statuses).toEqual([{ status: 'succeeded', n: EVENTS }])
    expect(db.prepare("SELECT COUNT(*) FROM attempts WHERE decision = 'pending' OR outcome = 'in_flight'").pluck().get()).toBe(0)
    expect(db.prepare('SELECT COUNT(*) FROM deliveries WHERE in_flight = 1 OR next_attempt_at IS NOT NULL').pluck().get()).toBe(0)
    // Every request the receiver saw names an attempt row that is still there.
    const rows = new Set(db.prepare('SELECT id FROM attempts').pluck().all() as number[])
    const missing = attemptIds.filter((id) => !rows.has(id))
    expect(missing).toEqual([])
    // What was in flight at the kill is recorded as interrupted and was retried.
    expect(db.prepare("SELECT COUNT(*) FROM attempts WHERE outcome = 'interrupted'").pluck().get()).toBe(summary.recovered)
    expect(db.prepare('SELECT COUNT(*) FROM deliveries WHERE interrupted > 0').pluck().get()).toBe(summary.recovered)
    db.close()
    expect(succeededEvents.size).toBe(EVENTS)
  })
})
