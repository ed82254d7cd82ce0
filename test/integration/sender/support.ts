import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { Clock } from '../../../shared/clock'
import type { AttemptView } from '../../../shared/sender'
import { createVirtualClock, isVirtualClock, type VirtualClock } from '../../../electron/engine/clock'
import { createSender, type Sender, type SenderOptions } from '../../../electron/engine/sender'
import { parseAttemptLink } from '../../../electron/engine/sender/attempt-link'
import { sign } from '../../../electron/engine/signatures'
import type { Database } from 'better-sqlite3'
import { openDatabase } from '../../../electron/engine/store'
import { listenLoopback } from '../../support/loopback'
import { makeTempDir } from '../../support/temp-dir'

export interface Captured {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: Buffer
  /** Clock time the request arrived. */
  at: number
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer, captured: Captured) => void | Promise<void>

export interface TestServer {
  url: string
  port: number
  requests: Captured[]
  setHandler(handler: Handler): void
  close(): Promise<void>
}

/** A plain node:http server on loopback that records every request and answers with `handler`. */
export async function startServer(clock: Clock, handler: Handler): Promise<TestServer> {
  const requests: Captured[] = []
  let current = handler
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const captured: Captured = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: clock.now() }
      requests.push(captured)
      Promise.resolve(current(req, res, body, captured)).catch(() => res.destroy())
    })
  })
  return {
    ...(await listenLoopback(server)),
    requests,
    setHandler: (h) => {
      current = h
    },
  }
}

/** The attempt id a request's x-hookloop-attempt link (`<id>.<mac>`) names; undefined without one. */
export function linkedAttemptId(headers: IncomingMessage['headers']): number | undefined {
  return parseAttemptLink(headers['x-hookloop-attempt'])?.attemptId
}

/** The key the sender holds a virtual clock under for the attempt that sent this request (what a receiver parks). */
export const attemptKey = (headers: IncomingMessage['headers']): string | undefined => {
  const id = linkedAttemptId(headers)
  return id === undefined ? undefined : String(id)
}

export const answer = (status: number, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, headers)
  res.end(`status ${status}`)
}

export interface SenderRig {
  sender: Sender
  clock: VirtualClock
  db: Database
  file: string
  close(): Promise<void>
}

/**
 * Where a test keeps the rig and the server it starts: both are closed, and forgotten, after each
 * test of the block this is called in.
 */
export function closedAfterEach(): { rig?: SenderRig; server?: TestServer } {
  const open: { rig?: SenderRig; server?: TestServer } = {}
  afterEach(async () => {
    await open.rig?.close()
    await open.server?.close()
    open.rig = undefined
    open.server = undefined
  })
  return open
}

/** Starts a sender rig and a loopback server answering with `handler`, both closed after each test of the block. */
export function senderWithServer(): (options: Partial<SenderOptions> & { start?: number }, handler: Handler) => Promise<{ rig: SenderRig; server: TestServer } & Pick<SenderRig, 'sender' | 'clock'>> {
  const open = closedAfterEach()
  return async (options, handler) => {
    const rig = (open.rig = await startSender(options))
    const server = (open.server = await startServer(rig.clock, handler))
    return { rig, server, sender: rig.sender, clock: rig.clock }
  }
}

/** A sender on a fresh SQLite file and a virtual clock starting at `start`. */
export async function startSender(options: Partial<SenderOptions> & { start?: number } = {}): Promise<SenderRig> {
  const temp = makeTempDir('hookloop-sender-')
  const file = join(temp.dir, 'hookloop.db')
  const db = openDatabase({ file })
  const clock = (options.clock as VirtualClock | undefined) ?? createVirtualClock({ start: options.start ?? 1_700_000_000_000 })
  // TEST_SENDER_WRITER_THREAD=1 runs every sender test with the attempt writes on the writer thread.
  const sender = createSender({ sign, writerThread: process.env.TEST_SENDER_WRITER_THREAD === '1', ...options, db, clock })
  await sender.start()
  return {
    sender,
    clock,
    db,
    file,
    async close() {
      await sender.stop()
      if (isVirtualClock(clock)) clock.dispose()
      db.close()
      temp.cleanup()
    },
  }
}

/** Resolves once `count` attempts have finished, with their views in order. */
export function attemptsFinished(sender: Sender, count: number): Promise<AttemptView[]> {
  const seen: AttemptView[] = []
  return new Promise((resolve) => {
    const off = sender.on('attempt.finished', (attempt) => {
      seen.push(attempt)
      if (seen.length === count) {
        off()
        resolve(seen)
      }
    })
  })
}

/** Subscribes, publishes one event, waits for the schedule to play out, and returns the one delivery with its attempts. */
export async function deliveredOnce(sender: Sender, subscription: Parameters<Sender['createSubscription']>[0], event: Parameters<Sender['publish']>[0]): Promise<ReturnType<Sender['getDelivery']>> {
  await sender.createSubscription(subscription)
  const { deliveries } = await sender.publish(event)
  await sender.settled()
  return await sender.getDelivery(deliveries[0]!.id)
}
