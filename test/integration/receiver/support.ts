// Helpers for the receiver's integration tests: a receiver over a real SQLite file, and a raw
// TCP client that sends exact bytes and reports exactly what came back (responses, FIN, RST).
import net from 'node:net'
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import { createRealClock } from '../../../electron/engine/clock'
import { createReceiver, type Receiver, type ReceiverEvent, type ReceiverOptions } from '../../../electron/engine/receiver'
import { openDatabase } from '../../../electron/engine/store'
import { makeTempDir } from '../../support/temp-dir'

export interface Harness {
  receiver: Receiver
  db: Database
  file: string
  events: ReceiverEvent[]
  /** Resolves once an event of this type (and matching the predicate) has been emitted. */
  waitFor<T extends ReceiverEvent['type']>(type: T, predicate?: (event: Extract<ReceiverEvent, { type: T }>) => boolean): Promise<Extract<ReceiverEvent, { type: T }>>
  stop(): Promise<void>
}

/** The two places commits run, for describe.each: on the event loop, and on the capture thread. */
export const COMMIT_MODES = [
  ['on the event loop', false],
  ['on the capture thread', true],
] as const

export async function startHarness(options: Partial<ReceiverOptions> = {}): Promise<Harness> {
  const temp = makeTempDir('hookloop-receiver-')
  const file = join(temp.dir, 'hookloop.db')
  const db = openDatabase({ file })
  const events: ReceiverEvent[] = []
  const waiters: { type: string; predicate: (e: ReceiverEvent) => boolean; resolve: (e: ReceiverEvent) => void }[] = []
  let n = 0
  const receiver = await createReceiver({
    db,
    clock: createRealClock(),
    newId: () => `id-${++n}`,
    captureThread: process.env.TEST_CAPTURE_THREAD === '1',
    ...options,
    onEvent: (event) => {
      events.push(event)
      for (const w of [...waiters]) {
        if (w.type === event.type && w.predicate(event)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(event)
        }
      }
      options.onEvent?.(event)
    },
  })
  return {
    receiver,
    db,
    file,
    events,
    waitFor(type, predicate) {
      const seen = events.find((e) => e.type === type && (!predicate || predicate(e as never)))
      if (seen) return Promise.resolve(seen as never)
      return new Promise((resolve) => waiters.push({ type, predicate: (e) => !predicate || predicate(e as never), resolve: resolve as (e: ReceiverEvent) => void }))
    },
    async stop() {
      await receiver.close()
      db.close()
      temp.cleanup()
    },
  }
}

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
}

export interface RawResult {
  /** Complete responses parsed from the bytes received (interim 1xx included). */
  responses: RawResponse[]
  raw: Buffer
  /** How the connection ended: our own close after the expected responses, FIN, or RST. */
  ended: 'done' | 'fin' | 'reset' | 'error'
  errorCode?: string
}

/** Parses as many complete HTTP/1.x responses (Content-Length framed) as `data` holds. */
export function parseResponses(data: Buffer, noBody = false): RawResponse[] {
  const out: RawResponse[] = []
  let offset = 0
  while (offset < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', offset)
    if (headEnd === -1) break
    const lines = data.subarray(offset, headEnd).toString('latin1').split('\r\n')
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')
    if (!match) break
    const headers: Record<string, string> = {}
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    const status = Number(match[1])
    const length = status < 200 || noBody ? 0 : Number(headers['content-length'] ?? '0')
    const bodyStart = headEnd + 4
    if (data.length < bodyStart + length) break
    out.push({ status, headers, body: data.subarray(bodyStart, bodyStart + length) })
    offset = bodyStart + length
  }
  return out
}

export interface SendOptions {
  /** Stop (and close our side) once this many final (non-1xx) responses arrived; default 1. 0 = wait for the server to end it. */
  responses?: number
  /** Write these pieces one after another, each after the previous is flushed, with a pause between. */
  pieces?: (string | Buffer)[]
  pauseMs?: number
  /** Half-close (FIN) our side after writing. */
  endAfterWrite?: boolean
  /** Reset our side right after writing (a client that vanishes). */
  resetAfterWrite?: boolean
  /** Responses carry no body whatever their Content-Length (answers to HEAD). */
  noBody?: boolean
}

export function send(port: number, bytes: string | Buffer, options: SendOptions = {}): Promise<RawResult> {
  const want = options.responses ?? 1
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let settled = false
    const finish = (ended: RawResult['ended'], errorCode?: string) => {
      if (settled) return
      settled = true
      const raw = Buffer.concat(chunks)
      const result: RawResult = { responses: parseResponses(raw, options.noBody), raw, ended }
      if (errorCode) result.errorCode = errorCode
      socket.destroy()
      resolve(result)
    }
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      if (want > 0 && parseResponses(Buffer.concat(chunks), options.noBody).filter((r) => r.status >= 200).length >= want) finish('done')
    })
    socket.on('end', () => finish('fin'))
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNRESET' ? 'reset' : 'error', error.code))
    socket.on('close', () => finish('fin'))
    socket.on('connect', async () => {
      const pieces = options.pieces ?? [bytes]
      for (const [i, piece] of pieces.entries()) {
        if (i > 0 && options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs))
        if (socket.destroyed) return
        await new Promise<void>((r) => socket.write(piece, () => r()))
      }
      if (options.resetAfterWrite) {
        socket.resetAndDestroy()
        finish('done')
        return
      }
      if (options.endAfterWrite) socket.end()
    })
  })
}

export function post(path: string, body: string, headers: Record<string, string> = {}): string {
  const length = Buffer.byteLength(body)
  const lines = Object.entries({ host: 'localhost', 'content-type': 'application/json', 'content-length': String(length), ...headers }).map(([k, v]) => `${k}: ${v}`)
  return `POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`
}

/** A clock whose waits end at once (time jumps forward), recording each wait: proves the fault steps wait on the injected clock. */
export function instantClock(start = 1_700_000_000_000) {
  let now = start
  const sleeps: number[] = []
  return {
    sleeps,
    clock: {
      mode: 'virtual' as const,
      now: () => now,
      setTimer(delayMs: number, fn: () => void) {
        const t = setImmediate(() => {
          now += delayMs
          fn()
        })
        return { cancel: () => clearImmediate(t) }
      },
      sleep(delayMs: number, signal?: AbortSignal) {
        sleeps.push(delayMs)
        if (signal?.aborted) return Promise.reject(signal.reason)
        now += delayMs
        return Promise.resolve()
      },
    },
    advance(ms: number) {
      now += ms
    },
  }
}
