import type { Dispatcher } from 'undici'
import type { Clock, TimerHandle } from '../../../shared/clock'
import { httpOutcome, type AttemptOutcome } from '../../../shared/sender'
import { classifyNetworkError } from './classify-error'

// One HTTP POST of one attempt. The timeout runs on the injected clock (so a virtual clock decides
// it exactly), redirects are followed only when asked, and the response is kept bounded.
// undici is the client (dispatch() on the same Agent the benchmark's bare loop uses).

export interface PostInput {
  url: string
  /** Default POST; GET (with no body) for the handshakes made that way (X's CRC, Dropbox's challenge). */
  method?: 'POST' | 'GET'
  headers: Record<string, string>
  body: Buffer
  clock: Clock
  timeoutMs: number
  /** Redirect hops to follow (0 = the 3xx is the outcome). */
  followRedirects: number
  /** Response body bytes kept; the rest is read and dropped. */
  maxResponseBytes: number
  dispatcher: Dispatcher
  /**
   * The duration is never less than the exchange took on the wall (a delivery to a real server):
   * a virtual clock stands still while a real server answers. Without it (a loop-mode target, in
   * a simulation) the duration is the clock's alone, scenario time like every other time there.
   */
  wallDuration?: boolean
}

export interface PostResult {
  outcome: AttemptOutcome
  statusCode: number | null
  responseHeaders: Record<string, string> | null
  responseBody: Buffer | null
  /** Clock ms from the start of the request to its end (the whole body read or the failure). */
  durationMs: number
  error: string | null
  /** Where the final hop went when redirects were followed. */
  finalUrl: string
}

class AttemptTimeout extends Error {
  override readonly name = 'AttemptTimeout'
}

interface Hop {
  statusCode: number
  headers: Record<string, string>
  body: Buffer
}

// Parsed target URLs: every attempt of a subscription goes to the same few.
const targets = new Map<string, { origin: string; path: string }>()
function target(url: string): { origin: string; path: string } {
  let hit = targets.get(url)
  if (!hit) {
    const parsed = new URL(url)
    hit = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` }
    if (targets.size >= 1_000) targets.clear()
    targets.set(url, hit)
  }
  return hit
}

function headerRecord(raw: Buffer[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString('latin1').toLowerCase()
    const value = (raw[i + 1] as Buffer).toString('latin1')
    out[name] = name in out ? `${out[name]}, ${value}` : value
  }
  return out
}

// One request/response over undici's dispatch() handler interface: no response stream, no
// AbortSignal and no promise per chunk, which request() would add to every attempt. `onAbortable`
// receives the function that aborts this hop (the clock timeout uses it).
function dispatchHop(input: PostInput, url: string, onAbortable: (abort: (reason: Error) => void) => void): Promise<Hop> {
  const { origin, path } = target(url)
  return new Promise<Hop>((resolve, reject) => {
    let statusCode = 0
    let headers: Record<string, string> = {}
    const chunks: Buffer[] = []
    let kept = 0
    input.dispatcher.dispatch(
      { origin, path, method: input.method ?? 'POST', headers: input.headers, body: input.method === 'GET' ? null : input.body },
      {
        onConnect: (abort: (reason?: Error) => void) => onAbortable(abort),
        onHeaders: (status: number, raw: Buffer[]) => {
          if (status < 200) return true // 1xx: the final response follows
          statusCode = status
          headers = headerRecord(raw)
          return true
        },
        onData: (chunk: Buffer) => {
          // Keep reading past the limit so the connection can be reused; keep only the first bytes.
          if (kept < input.maxResponseBytes) {
            const room = input.maxResponseBytes - kept
            chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
            kept += Math.min(room, chunk.length)
          }
          return true
        },
        onComplete: () => resolve({ statusCode, headers, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) }),
        onError: (error: Error) => reject(error),
      } as unknown as Dispatcher.DispatchHandler,
    )
  })
}

export async function postOnce(input: PostInput): Promise<PostResult> {
  const { clock } = input
  const started = clock.now()
  const wallStarted = performance.now()
  // How long the exchange took on the clock (a virtual clock moves only while every piece of work
  // waits on it, e.g. a loop receiver's `delay`) and, for real traffic, never less than on the wall.
  const took = () => (input.wallDuration ? Math.max(clock.now() - started, Math.round(performance.now() - wallStarted)) : clock.now() - started)
  let timedOut: AttemptTimeout | null = null
  let abortHop: ((reason: Error) => void) | null = null
  // A timeout is *more* than timeoutMs: an answer completing exactly at the deadline is in time.
  // So when the deadline timer fires, the abort is one more zero-delay timer at the same instant,
  // set after the current batch of due timers has run (queueMicrotask: a virtual clock fires
  // every timer due at one instant in one loop, and one set inside it would fire in that loop
  // too). A receiver whose answer is due at the same instant (a `delay` of exactly timeoutMs on
  // the same virtual clock) resumes, unparks this attempt's hold, and the clock cannot reach the
  // abort before the answer is in. On a real clock the extra timer is a few ms of grace at most.
  let abortTimer: TimerHandle | null = null
  let settled = false
  const timeout = clock.setTimer(input.timeoutMs, () => {
    queueMicrotask(() => {
      if (settled) return
      abortTimer = clock.setTimer(0, () => {
        timedOut = new AttemptTimeout(`no complete response within ${input.timeoutMs} ms`)
        abortHop?.(timedOut)
      })
    })
  })
  const abortable = (abort: (reason: Error) => void) => {
    abortHop = abort
    if (timedOut) abort(timedOut)
  }
  let url = input.url
  try {
    for (let hop = 0; ; hop++) {
      const response = await dispatchHop(input, url, abortable)
      const location = response.headers.location
      if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined && hop < input.followRedirects) {
        url = new URL(location, url).toString()
        continue
      }
      return {
        outcome: httpOutcome(response.statusCode),
        statusCode: response.statusCode,
        responseHeaders: response.headers,
        responseBody: response.body,
        durationMs: took(),
        error: null,
        finalUrl: url,
      }
    }
  } catch (error) {
    const reason = timedOut as AttemptTimeout | null
    return {
      outcome: reason ? 'timeout' : classifyNetworkError(error),
      statusCode: null,
      responseHeaders: null,
      responseBody: null,
      durationMs: took(),
      error: reason ? reason.message : describeError(error),
      finalUrl: url,
    }
  } finally {
    settled = true
    timeout.cancel()
    ;(abortTimer as TimerHandle | null)?.cancel()
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: unknown }).cause
  const code = (error as { code?: string }).code
  const parts = [code ? `${code}: ${error.message}` : error.message]
  if (cause instanceof Error && cause.message !== error.message) parts.push(`(${cause.message})`)
  return parts.join(' ')
}
