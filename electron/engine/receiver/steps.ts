// What each step does on a real socket. Every wait goes through the injected Clock with the
// connection's AbortSignal, so a virtual clock resolves them at once and a client that goes away
// (or a receiver that closes) ends them: no timer outlives its socket.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Clock } from '../../../shared/clock'
import type { ForwardCopyStep, ForwardStep } from '../../../shared/receiver'
import type { ResponseOutcome } from '../../../shared/receiver'
import type { Step } from '../../../shared/receiver'
import { waitingOnClock } from '../clock'

export interface StepRun {
  req: IncomingMessage
  res: ServerResponse
  socket: Socket
  /** Aborted when the connection closes or the receiver shuts down. */
  readonly signal: AbortSignal
  /** `signal.aborted`, read without making the signal (only a wait needs one). */
  aborted(): boolean
  clock: Clock
  /** Resolves once the request's row is committed; called before the first byte of any answer. */
  beforeAnswer: () => Promise<void>
  /** Loop mode: the id of the attempt whose x-hookloop-attempt link checked out (receiver.ts, linkedAttempt). */
  attemptKey?: string
  /** The answer of the plan's handshake step, computed when the request was inspected (handshake-step.ts). */
  handshake?: PreparedReply
  /** Forward mode (forward-steps.ts): sends the captured request on to a target. */
  forward?: ForwardHooks
}

export interface ForwardHooks {
  /** The final `forward` step: the sender is answered with the target's answer (or 502/504). */
  final(step: ForwardStep, run: StepRun): Promise<StepResult>
  /** `forward-copy`: in the background, or (wait) until the target has answered. */
  copy(step: ForwardCopyStep, run: StepRun): Promise<void>
}

/**
 * Waits on the clock on behalf of the request. In loop mode on a virtual clock, the sender's
 * attempt is parked meanwhile, so the clock may jump (an 11 s delay against a 10 s sender
 * timeout resolves at once, in the right order).
 */
async function sleep(run: StepRun, ms: number): Promise<void> {
  const resume = waitingOnClock(run.clock, run.attemptKey)
  try {
    await run.clock.sleep(ms, run.signal)
  } finally {
    resume()
  }
}

/** Holds until the connection closes (the sender gives up), parking the attempt meanwhile. */
export async function holdUntilClosed(run: StepRun): Promise<void> {
  const resume = waitingOnClock(run.clock, run.attemptKey)
  try {
    await untilAborted(run.signal)
  } finally {
    resume()
  }
}

export interface StepResult {
  outcome: ResponseOutcome
  status: number | null
  headers: [string, string][] | null
  body: Buffer | null
  /** The final step that was applied (null when the client left before it). */
  fault: Step | null
}

/** Thrown by beforeAnswer when the capture could not be committed. */
export class CaptureNotStoredError extends Error {
  override readonly name = 'CaptureNotStoredError'
}

const MALFORMED: Record<NonNullable<Extract<Step, { type: 'malformed' }>['variant']>, string> = {
  garbage: '\u0000\u0001\u0002 this is not HTTP \r\n\r\n',
  'bad-status-line': 'HTTP/1.1 OK 200\r\nContent-Length: 0\r\n\r\n',
  'bad-header': 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nthis line is not a header\r\n\r\nok',
  'short-body': 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly part of the body',
}

export function gone(fault: Step | null = null): StepResult {
  return { outcome: 'client_gone', status: null, headers: null, body: null, fault }
}

/** Waits until the response is fully handed to the OS, or the connection closes first. */
export function finished(res: ServerResponse): Promise<boolean> {
  if (res.writableFinished) return Promise.resolve(true)
  return new Promise((resolve) => {
    const onFinish = () => {
      res.off('close', onClose)
      resolve(true)
    }
    const onClose = () => {
      res.off('finish', onFinish)
      resolve(res.writableFinished)
    }
    res.once('finish', onFinish)
    res.once('close', onClose)
  })
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}

function replyHeaders(headers: Record<string, string> | undefined, body: Buffer, defaults: Record<string, string>): [string, string][] {
  const out: [string, string][] = Object.entries(headers ?? {})
  const names = new Set(out.map(([name]) => name.toLowerCase()))
  for (const [name, value] of Object.entries(defaults)) if (!names.has(name)) out.push([name, value])
  if (!names.has('content-length') && !names.has('transfer-encoding')) out.push(['content-length', String(body.length)])
  return out
}

async function writeReply(run: StepRun, status: number, headers: [string, string][], body: Buffer, fault: Step | null): Promise<StepResult> {
  const { res } = run
  res.writeHead(status, headers.flat())
  res.end(body)
  const ok = await finished(res)
  return ok ? { outcome: 'replied', status, headers, body, fault } : { ...gone(fault), status, headers, body }
}

/** Runs the steps; the last one is final (validated when the rule was built). */
export async function runSteps(steps: readonly Step[], run: StepRun): Promise<StepResult> {
  const { socket } = run
  for (const step of steps) {
    if (run.aborted()) return gone()
    switch (step.type) {
      case 'delay':
        try {
          await sleep(run, step.ms)
        } catch {
          return gone()
        }
        continue
      case 'reply': {
        await run.beforeAnswer()
        const body = Buffer.from(step.body ?? '', 'utf8')
        const defaults: Record<string, string> = body.length > 0 ? { 'content-type': 'text/plain; charset=utf-8' } : {}
        return writeReply(run, step.status, replyHeaders(step.headers, body, defaults), body, step)
      }
      case 'redirect': {
        await run.beforeAnswer()
        const body = Buffer.alloc(0)
        return writeReply(run, step.status, replyHeaders({ location: step.location }, body, {}), body, step)
      }
      case 'timeout': {
        await run.beforeAnswer()
        if (step.ms === undefined) {
          await holdUntilClosed(run)
          return { outcome: 'timed_out', status: null, headers: null, body: null, fault: step }
        }
        try {
          await sleep(run, step.ms)
        } catch {
          return { outcome: 'timed_out', status: null, headers: null, body: null, fault: step }
        }
        socket.destroySoon()
        return { outcome: 'timed_out', status: null, headers: null, body: null, fault: step }
      }
      case 'close':
        await run.beforeAnswer()
        // end() sends FIN; destroySoon() releases the socket once that is written.
        socket.destroySoon()
        return { outcome: 'closed', status: null, headers: null, body: null, fault: step }
      case 'reset':
        await run.beforeAnswer()
        socket.resetAndDestroy()
        return { outcome: 'reset', status: null, headers: null, body: null, fault: step }
      case 'malformed': {
        await run.beforeAnswer()
        const bytes = Buffer.from(MALFORMED[step.variant ?? 'garbage'], 'latin1')
        socket.end(bytes)
        socket.destroySoon()
        return { outcome: 'malformed', status: null, headers: null, body: bytes, fault: step }
      }
      case 'drip':
        await run.beforeAnswer()
        return drip(step, run)
      case 'handshake': {
        await run.beforeAnswer()
        // Always computed for a plan ending in a handshake; a 500 rather than a hang if it was not.
        const answer = run.handshake ?? { status: 500, headers: replyHeaders(undefined, Buffer.from('the handshake answer was not computed'), { 'content-type': 'text/plain; charset=utf-8' }), body: Buffer.from('the handshake answer was not computed') }
        return writeReply(run, answer.status, answer.headers, answer.body, step)
      }
      case 'forward':
        // The capture is on disk before the app sees it: nothing forwarded is lost.
        await run.beforeAnswer()
        if (!run.forward) return defaultReply(run, 502, 'forwarding is not available here')
        return run.forward.final(step, run)
      case 'forward-copy':
        await run.beforeAnswer()
        await run.forward?.copy(step, run)
        continue
      default: {
        const never: never = step
        return never
      }
    }
  }
  // Unreachable for validated rules (the last step is final); answer rather than hang.
  await run.beforeAnswer()
  const body = Buffer.from('OK')
  return writeReply(run, 200, replyHeaders(undefined, body, { 'content-type': 'text/plain; charset=utf-8' }), body, null)
}

async function drip(step: Extract<Step, { type: 'drip' }>, run: StepRun): Promise<StepResult> {
  const { res } = run
  const status = step.status ?? 200
  const body = Buffer.from(step.body, 'utf8')
  const headers = replyHeaders(step.headers, body, { 'content-type': 'text/plain; charset=utf-8' })
  const size = step.chunk_bytes ?? 1
  res.writeHead(status, headers.flat())
  res.flushHeaders()
  for (let offset = 0; offset < body.length; offset += size) {
    if (offset > 0) {
      try {
        await sleep(run, step.interval_ms)
      } catch {
        return { ...gone(step), status, headers, body }
      }
    }
    if (run.aborted()) return { ...gone(step), status, headers, body }
    res.write(body.subarray(offset, offset + size))
  }
  res.end()
  const ok = await finished(res)
  return ok ? { outcome: 'replied', status, headers, body, fault: step } : { ...gone(step), status, headers, body }
}

/** A complete answer known before any step runs: written with the row, in one insert. */
export interface PreparedReply {
  status: number
  headers: [string, string][]
  body: Buffer
  /** The final step it comes from, null for the receiver's own answers. */
  fault: Step | null
}

/** The plan's answer when it is a single reply, redirect or handshake (no delay, no connection fault). */
// The receiver's own plain answers (the default 200, the 404) are the same for every request:
// built once, frozen (the capture codec may then reuse their headers' JSON, store/request-codec.ts).
const fallbacks = new Map<string, PreparedReply>()
function fallbackReply(status: number, text: string): PreparedReply {
  const id = `${status} ${text}`
  let reply = fallbacks.get(id)
  if (!reply) {
    const body = Buffer.from(text, 'utf8')
    const headers = replyHeaders(undefined, body, { 'content-type': 'text/plain; charset=utf-8' }).map((pair) => Object.freeze(pair))
    reply = { status, headers: Object.freeze(headers) as [string, string][], body, fault: null }
    fallbacks.set(id, reply)
  }
  return reply
}

export function prepareReply(steps: readonly Step[] | null, fallback: { status: number; text: string }, handshake: PreparedReply | null = null): PreparedReply | null {
  if (steps === null) return fallbackReply(fallback.status, fallback.text)
  const only = steps.length === 1 ? steps[0] : undefined
  if (only?.type === 'reply') {
    const body = Buffer.from(only.body ?? '', 'utf8')
    const defaults: Record<string, string> = body.length > 0 ? { 'content-type': 'text/plain; charset=utf-8' } : {}
    return { status: only.status, headers: replyHeaders(only.headers, body, defaults), body, fault: only }
  }
  if (only?.type === 'redirect') {
    const body = Buffer.alloc(0)
    return { status: only.status, headers: replyHeaders({ location: only.location }, body, {}), body, fault: only }
  }
  if (only?.type === 'handshake' && handshake) return handshake
  return null
}

export async function sendPrepared(run: StepRun, reply: PreparedReply): Promise<StepResult> {
  await run.beforeAnswer()
  // Nothing was written: the record must not claim the answer it could not send.
  if (run.aborted()) return gone(reply.fault)
  return writeReply(run, reply.status, reply.headers, reply.body, reply.fault)
}

/** The answer when no rule matched. */
export function defaultReply(run: StepRun, status: number, text: string): Promise<StepResult> {
  const body = Buffer.from(text, 'utf8')
  return run.beforeAnswer().then(() => writeReply(run, status, replyHeaders(undefined, body, { 'content-type': 'text/plain; charset=utf-8' }), body, null))
}
