// The sender on a team's PostgreSQL (createSender({ store })): everything it reads and writes goes
// through SqlEngine, the attempt path through the engine writer. One sender publishes to a real
// HTTP server that answers 503 first: each attempt is recorded once, the retry is scheduled and
// sent. Then three sender processes on one PostgreSQL drain 2 000 due deliveries: none is sent
// twice, none is left; with one of them killed by SIGKILL mid-way, the others take over what it
// held, and only an attempt it had cut short (recorded as interrupted) is sent again.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createSender } from '../../../electron/engine/sender'
import { sign } from '../../../electron/engine/signatures'
import { openStore, parseStoreLocation, type OpenedStore } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { startServer, type TestServer } from './support'

const postgres = usePostgres()
const KEY = randomBytes(32)
const quiet = { notice: () => undefined }
const EVENTS = 2_000

async function teamStore(): Promise<{ url: string; store: OpenedStore }> {
  const url = await postgres.freshDatabase()
  return { url, store: await openStore(parseStoreLocation(url), { ...quiet, postgresKey: { key: KEY } }) }
}

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

describe('the sender on a team PostgreSQL store', () => {
  let outDir: string
  const servers: TestServer[] = []

  beforeAll(async () => {
    mkdirSync(resolve('test-results'), { recursive: true })
    outDir = mkdtempSync(resolve('test-results', 'sender-team-store-'))
    await build({
      configFile: false,
      logLevel: 'warn',
      build: { ssr: resolve('test/bench/team-drain-process.ts'), outDir, emptyOutDir: true, rollupOptions: { output: { entryFileNames: 'team-drain-process.mjs' } } },
    })
  }, 120_000)
  afterAll(async () => {
    for (const server of servers) await server.close()
    rmSync(outDir, { recursive: true, force: true })
  })

  it('records each attempt once, and schedules and sends the retry after a 503', async () => {
    const clock = createRealClock()
    const seen = new Map<string, number>()
    const server = await startServer(clock, (req, res) => {
      const id = String(req.headers['webhook-id'])
      const n = (seen.get(id) ?? 0) + 1
      seen.set(id, n)
      res.writeHead(n === 1 ? 503 : 200).end()
    })
    servers.push(server)
    const { store } = await teamStore()
    const sender = createSender({ store: store.engine, secrets: store.secrets, clock, sign })
    try {
      await sender.start()
      await sender.createSubscription({
        id: 'team',
        target: { url: `${server.url}/hook` },
        scheme: 'standard-webhooks',
        policy: { preset: 'custom', schedule: { kind: 'fixed', interval_ms: 50 }, max_attempts: 3, timeout_ms: 5_000 },
      })
      const published = []
      for (let i = 0; i < 5; i++) published.push(await sender.publish({ eventType: 'booking.created', payload: { i } }))
      await sender.settled()
      for (const { eventId, deliveries } of published) {
        const { delivery, attempts } = await sender.getDelivery(deliveries[0]!.id)
        expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, inFlight: false })
        expect(attempts.map((a) => [a.n, a.outcome, a.decision])).toEqual([
          [1, 'http_503', 'retry'],
          [2, 'http_200', 'succeeded'],
        ])
        // The retry went out no earlier than the policy's interval after the first.
        expect(attempts[1]!.startedAt - attempts[0]!.startedAt).toBeGreaterThanOrEqual(50)
        expect(seen.get(eventId)).toBe(2)
      }
      // Each attempt is one row under its own id, and the id the request carried is that row's.
      const rows = await store.engine.all<{ id: number; delivery_id: number }>('SELECT id, delivery_id FROM attempts ORDER BY id')
      expect(rows).toHaveLength(10)
      const linked = server.requests.map((r) => Number(String(r.headers['x-hookloop-attempt']).split('.')[0]))
      expect(new Set(linked)).toEqual(new Set(rows.map((r) => r.id)))
      expect(await store.engine.get('SELECT COUNT(*) AS n FROM deliveries WHERE in_flight = 1 OR claimed_by IS NOT NULL')).toEqual({ n: 0 })
    } finally {
      await sender.stop()
      await store.engine.close()
    }
  })

  it.each([false, true])('three processes drain 2 000 due deliveries, each sent once (one killed with SIGKILL: %s)', async (kill) => {
    const byEvent = new Map<string, number>()
    const server = await startServer(createRealClock(), (req, res) => {
      const id = String(req.headers['webhook-id'])
      byEvent.set(id, (byEvent.get(id) ?? 0) + 1)
      // A little later, so attempts are in flight in every process at once.
      setTimeout(() => res.writeHead(200).end('ok'), 5)
    })
    servers.push(server)
    const { url, store } = await teamStore()
    try {
      const child = resolve(outDir, 'team-drain-process.mjs')
      const env = { ...process.env, HOOKLOOP_SECRET_KEY: KEY.toString('base64') }
      const run = (mode: string, n = '0') => spawn(process.execPath, [child, url, `${server.url}/hook`, mode, n], { stdio: ['ignore', 'pipe', 'inherit'], env })
      const seed = run('seed', String(EVENTS))
      await new Promise<void>((r) => seed.once('close', () => r()))
      expect(seed.exitCode).toBe(0)
      expect(await store.engine.get("SELECT COUNT(*) AS n FROM deliveries WHERE next_attempt_at IS NOT NULL AND status = 'pending'")).toEqual({ n: EVENTS })

      const drains = [run('drain'), run('drain'), run('drain')]
      const outputs = drains.map((d) => outputOf(d))
      for (const o of outputs) expect(await o.first).toBe('started')
      if (kill) {
        for (let i = 0; i < 4_000 && server.requests.length < EVENTS / 3; i++) await new Promise((r) => setTimeout(r, 5))
        drains[0]!.kill('SIGKILL')
      }
      const lines = await Promise.all(outputs.map((o) => o.last))
      for (const d of kill ? drains.slice(1) : drains) expect(d.exitCode).toBe(0)
      const started = lines.slice(kill ? 1 : 0).map((l) => (JSON.parse(l) as { started: number }).started)
      if (!kill) for (const n of started) expect(n).toBeGreaterThan(0)

      const db = store.engine
      expect(await db.all('SELECT status, COUNT(*) AS n FROM deliveries GROUP BY status')).toEqual([{ status: 'succeeded', n: EVENTS }])
      expect(await db.get('SELECT COUNT(*) AS n FROM deliveries WHERE in_flight = 1 OR claimed_by IS NOT NULL')).toEqual({ n: 0 })
      // Sent twice only where a dead process's attempt was cut short and recorded as interrupted.
      const interrupted = await db.all<{ event_id: string }>("SELECT DISTINCT d.event_id FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE a.outcome = 'interrupted'")
      const interruptedEvents = new Set(interrupted.map((r) => r.event_id))
      expect(await db.all("SELECT delivery_id FROM attempts WHERE outcome != 'interrupted' GROUP BY delivery_id HAVING COUNT(*) > 1")).toEqual([])
      const rows = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM attempts'))!.n
      expect(byEvent.size).toBe(EVENTS)
      for (const [event, n] of byEvent) if (!interruptedEvents.has(event)) expect(n, event).toBe(1)
      expect([...byEvent.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(rows)
      if (!kill) expect(interruptedEvents.size).toBe(0)
    } finally {
      await store.engine.close()
    }
    // Three processes, a lease to run out and 2 000 commits on a server sharing two cores with
    // the rest of the suite: minutes under load, not the default minute.
  }, 240_000)
})
