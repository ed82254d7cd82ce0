// Reading a request's body within three bounds: the endpoint's body limit (past it the rest is
// drained and only the first bytes kept), the receiver's memory budget for bodies in flight (past
// it the rest is drained, nothing more kept), and the connection's deadline (server.ts).
import type { IncomingMessage } from 'node:http'
import type { BodyReservation } from './body-budget'
import type { Connection } from './server'

/** How much of an over-limit body is kept (the rest is counted, not stored). */
export const TRUNCATED_PREVIEW = 64 * 1024

/** The receiver's own refusal: its status, the reason recorded, and Retry-After when it is worth retrying. */
export interface Refusal {
  status: number
  reason: string
  retryAfterS?: number
}

export type BodyRead =
  | { kind: 'complete'; body: Buffer; size: number }
  | { kind: 'aborted'; body: Buffer; size: number }
  /**
   * whole: the bytes kept are the whole body (a refusal before reading a request without one).
   * unread: refused before reading a body the client may still be sending (the answer lingers, linger.ts).
   */
  | { kind: 'refused'; body: Buffer; size: number; refusal: Refusal; whole: boolean; unread?: boolean }

export const RETRY_AFTER_S = 5

export const refusals = {
  tooLarge: (limit: number): Refusal => ({ status: 413, reason: `the body is larger than this endpoint's limit of ${limit} bytes` }),
  deadline: (): Refusal => ({ status: 408, reason: 'the request took too long to arrive' }),
  badRequest: (): Refusal => ({ status: 400, reason: 'the request body is not valid HTTP (bad chunk framing, or the connection ended mid-body)' }),
  overBudget: (limit: number): Refusal => ({
    status: 503,
    reason: `the receiver is holding its memory budget of ${limit} bytes for bodies in flight; retry later`,
    retryAfterS: RETRY_AFTER_S,
  }),
  storeUnreachable: (): Refusal => ({ status: 503, reason: 'the store cannot be reached, so the request cannot be stored; retry later', retryAfterS: RETRY_AFTER_S }),
}

export function declaredLength(req: IncomingMessage): number | null {
  const value = req.headers['content-length']
  if (value === undefined || !/^\d+$/.test(value)) return null
  return Number(value)
}

export interface ReadLimits {
  /** The endpoint's body limit. */
  limit: number
  reservation: BodyReservation
  /** The budget's size, for the refusal's reason. */
  budgetLimit: number
  /** The declared length, already reserved: the body goes into one buffer of that size. */
  declared: number | null
}

/** Reads the body, keeping at most `limit` bytes; a body over a bound is drained (not stored) to its end. */
export function readBody(req: IncomingMessage, connection: Connection, limits: ReadLimits): Promise<BodyRead> {
  const { limit, reservation, declared } = limits
  return new Promise((resolve) => {
    // A declared length is allocated once (no chunk list + concat copy of a 10 MB body).
    const whole = declared !== null && declared > 0 ? Buffer.allocUnsafe(declared) : null
    const chunks: Buffer[] = []
    let size = 0
    let kept = 0
    let tooLarge = false
    let overBudget = false
    let settled = false
    const settle = (kind: 'complete' | 'aborted' | 'deadline' | 'bad_request') => {
      if (settled) return
      settled = true
      connection.interrupt = null
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      const body = whole ? whole.subarray(0, kept) : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
      if (kind === 'aborted') return resolve({ kind, body, size })
      if (kind === 'deadline') return resolve({ kind: 'refused', body, size, refusal: refusals.deadline(), whole: false })
      if (kind === 'bad_request') return resolve({ kind: 'refused', body, size, refusal: refusals.badRequest(), whole: false })
      if (tooLarge) return resolve({ kind: 'refused', body, size, refusal: refusals.tooLarge(limit), whole: false })
      if (overBudget) return resolve({ kind: 'refused', body, size, refusal: refusals.overBudget(limits.budgetLimit), whole: false })
      resolve({ kind: 'complete', body, size })
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (!tooLarge && size > limit) tooLarge = true
      if (overBudget) return
      const room = (tooLarge ? Math.min(limit, TRUNCATED_PREVIEW) : limit) - kept
      if (room <= 0) return
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room)
      if (whole) {
        // The parser never passes more than the declared length (reserved before reading).
        kept += part.copy(whole, kept)
        return
      }
      // Chunked: each kept piece is taken from the budget as it comes.
      if (!reservation.take(part.length)) {
        overBudget = true
        return
      }
      chunks.push(part)
      kept += part.length
    }
    const onEnd = () => {
      connection.received()
      settle('complete')
    }
    const onClose = () => settle(req.complete ? 'complete' : 'aborted')
    connection.interrupt = (reason) => settle(reason)
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('close', onClose)
  })
}
