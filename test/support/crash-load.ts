// The crash check of the receiver's promise, "a request answered 2xx is stored": a real `hookloop
// listen` (listen-cli.ts) under load from many keep-alive connections is killed with SIGKILL in
// the middle, and every request whose 2xx status line reached its sender must then be found in the
// store, once. Each request carries its own number in its body, so what was answered and what was
// stored can be matched one by one. Used by the crash test (test/integration/cli/listen-crash.test.ts)
// and by `npm run bench:crash` (test/bench/crash.ts).
import { Pool } from 'undici'
import { openStore, parseStoreLocation } from '../../electron/engine/store'

export interface CrashLoad {
  /** Numbers of the requests answered 2xx (their status line received) before the kill. */
  answered: Set<number>
  /** Requests answered with another status (none is expected: listen's default endpoint answers 200). */
  otherStatus: number
  /** Requests that failed before the kill was asked (none is expected). */
  failedBefore: number
  /** Requests sent in all. */
  sent: number
  /** Ms from the first request to the kill. */
  loadMs: number
}

export interface CrashLoadOptions {
  /** The receiver's port on 127.0.0.1. */
  port: number
  /** Path of a listen endpoint that answers 2xx (listen's default: /h/default). */
  path?: string
  /** Keep-alive connections, each with one request at a time. */
  connections: number
  /** Asked after each answer: true kills the process now. */
  killWhen: (answered: number, sinceStartMs: number) => boolean
  /** Kills the receiver's process (SIGKILL). */
  kill: () => void
}

/** The body of request `seq`: a webhook with an id of its own, its number readable from the stored row. */
const crashBody = (seq: number): string => JSON.stringify({ id: `evt_crash_${seq}`, type: 'crash.check', seq })

/** Sends until `killWhen` says so, kills, and returns once every connection has ended. */
export async function loadUntilKilled(options: CrashLoadOptions): Promise<CrashLoad> {
  const pool = new Pool(`http://127.0.0.1:${options.port}`, { connections: options.connections, pipelining: 1 })
  const answered = new Set<number>()
  let otherStatus = 0
  let failedBefore = 0
  let sent = 0
  let killed = false
  const started = performance.now()
  let loadMs = 0
  const killNow = () => {
    if (killed) return
    killed = true
    loadMs = performance.now() - started
    options.kill()
  }
  const worker = async () => {
    while (!killed) {
      const seq = sent++
      try {
        const response = await pool.request({ path: options.path ?? '/h/default', method: 'POST', headers: { 'content-type': 'application/json' }, body: crashBody(seq) })
        // The status line is the answer: counted before the body is read, which the kill may cut.
        if (response.statusCode >= 200 && response.statusCode < 300) answered.add(seq)
        else otherStatus++
        await response.body.dump().catch(() => undefined)
      } catch {
        // Before the kill no request fails: one that does is counted and ends the load.
        if (!killed) {
          failedBefore++
          killNow()
        }
        return
      }
      if (options.killWhen(answered.size, performance.now() - started)) killNow()
    }
  }
  await Promise.all(Array.from({ length: options.connections }, worker))
  await pool.destroy().catch(() => undefined)
  return { answered, otherStatus, failedBefore, sent, loadMs }
}

export interface CrashVerdict {
  answered: number
  stored: number
  /** Answered 2xx and not in the store: the promise broken. */
  lost: number[]
  /** Stored more than once (each number was sent once). */
  storedTwice: number
  /** Stored and not answered: committed when the kill came, before the answer left (a sender retries those). */
  storedUnanswered: number
}

/** Reads every captured request's number from the store at `location` (a data folder or postgres://) and holds them against what was answered. */
export async function judgeCrash(location: string, load: CrashLoad): Promise<CrashVerdict> {
  const store = await openStore(parseStoreLocation(location), { notice: () => undefined, withoutSecrets: true })
  let rows: Array<{ body: Buffer | null }>
  try {
    rows = await store.engine.all<{ body: Buffer | null }>('SELECT body FROM requests')
  } finally {
    await store.engine.close()
  }
  const seen = new Map<number, number>()
  for (const row of rows) {
    const seq = (JSON.parse(Buffer.from(row.body ?? []).toString('utf8')) as { seq?: unknown }).seq
    if (typeof seq === 'number') seen.set(seq, (seen.get(seq) ?? 0) + 1)
  }
  const lost = [...load.answered].filter((seq) => !seen.has(seq)).sort((a, b) => a - b)
  let storedTwice = 0
  let storedUnanswered = 0
  for (const [seq, n] of seen) {
    if (n > 1) storedTwice++
    if (!load.answered.has(seq)) storedUnanswered++
  }
  return { answered: load.answered.size, stored: rows.length, lost, storedTwice, storedUnanswered }
}
