// The sender benchmarks' shared rig: the failing receiver in its own process, the bare undici
// loop (the sender's anchor: the same client at the same concurrency, nothing else), and one run
// of Hookloop's sender (events published under seed A's policy on a virtual clock, then every
// attempt sent, signed, recorded and rescheduled until all settle). bench:sender times them;
// bench:costs profiles them (sender-costs-process.ts).
import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Agent, type Dispatcher } from 'undici'
import { createVirtualClock } from '../../electron/engine/clock'
import { createSender } from '../../electron/engine/sender'
import { sign } from '../../electron/engine/signatures'
import { openDatabase } from '../../electron/engine/store'

export const EVENTS = 10_000
export const ATTEMPTS = 40_000
export const CONCURRENCY = 64

export async function startReceiver(): Promise<{ port: number; stop: () => void; reset: () => Promise<void> }> {
  const child = fork(resolve('test/bench/sender-receiver.mjs'), [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const port = await new Promise<number>((done, fail) => {
    child.once('error', fail)
    child.stdout?.once('data', (chunk: Buffer) => done(Number(chunk.toString().trim())))
  })
  return {
    port,
    stop: () => child.kill(),
    reset: () =>
      new Promise<void>((done) => {
        child.once('message', () => done())
        child.send('reset')
      }),
  }
}

export async function bare(url: string): Promise<{ perSecond: number; cpuUs: number }> {
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000, connections: CONCURRENCY })
  const body = Buffer.from(JSON.stringify({ event_id: '00000000-0000-4000-8000-000000000000', event_type: 'booking.created', payload: { n: 0 } }))
  let next = 0
  const cpu = process.cpuUsage()
  const started = performance.now()
  const { origin, pathname } = new URL(url)
  // The same client at the same level the sender uses: dispatch() on an undici Agent, the
  // response drained and discarded.
  const post = (i: number) =>
    new Promise<void>((done, fail) => {
      dispatcher.dispatch(
        { origin, path: pathname, method: 'POST', body, headers: { 'content-type': 'application/json', 'x-bench-id': String(i % EVENTS) } },
        {
          onConnect: () => {},
          onHeaders: () => true,
          onData: () => true,
          onComplete: () => done(),
          onError: (error: Error) => fail(error),
        } as unknown as Dispatcher.DispatchHandler,
      )
    })
  async function worker(): Promise<void> {
    while (next < ATTEMPTS) await post(next++)
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  await dispatcher.close()
  return { perSecond: ATTEMPTS / seconds, cpuUs: (used.user + used.system) / ATTEMPTS }
}

export interface TimedHooks {
  begin(): Promise<void>
  end(): Promise<void>
}

export async function hookloop(url: string, writerThread: boolean, hooks?: TimedHooks): Promise<{ perSecond: number; cpuUs: number; attempts: number; publishPerSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-sender-'))
  const db = openDatabase({ file: join(dir, 'hookloop.db') })
  const clock = createVirtualClock({ start: 0 })
  const sender = createSender({ db, clock, sign, concurrency: CONCURRENCY, writerThread })
  await sender.createSubscription({ id: 'bench', target: { url }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
  const publishStart = performance.now()
  for (let i = 0; i < EVENTS; i++) await sender.publish({ eventType: 'booking.created', payload: { n: i } })
  const publishSeconds = (performance.now() - publishStart) / 1000
  await hooks?.begin()
  const cpu = process.cpuUsage()
  const started = performance.now()
  await sender.start()
  await sender.settled()
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  await hooks?.end()
  const attempts = db.prepare('SELECT COUNT(*) FROM attempts').pluck().get() as number
  const succeeded = db.prepare("SELECT COUNT(*) FROM deliveries WHERE status = 'succeeded'").pluck().get() as number
  if (succeeded !== EVENTS) throw new Error(`expected ${EVENTS} succeeded deliveries, got ${succeeded}`)
  await sender.stop()
  clock.dispose()
  db.close()
  rmSync(dir, { recursive: true, force: true })
  return { perSecond: attempts / seconds, cpuUs: (used.user + used.system) / attempts, attempts, publishPerSecond: EVENTS / publishSeconds }
}
