import { STATUS_CODES } from 'node:http'
import type { LookupFunction } from 'node:net'
import { httpGet, HttpGetError } from './http-get'

// The health check goes through the public URL end to end (DNS, TLS, the tunnel server, one of
// our sockets) but never reaches the receiver: the socket pool answers this one path itself, so
// health checks are not captured as requests. The path carries a random per-run secret, so no
// outside request can be mistaken for it, and the answer echoes it, so a page served by
// something else (a reminder page, a proxy error) never passes.

export const HEALTH_PATH_PREFIX = '/__hookloop_tunnel_health/'
export const HEALTH_ECHO_HEADER = 'x-hookloop-tunnel'

/** The exact bytes a health request starts with on a tunnel socket. */
export function healthRequestMarker(secret: string): Buffer {
  return Buffer.from(`GET ${HEALTH_PATH_PREFIX}${secret} `, 'latin1')
}

/** What the socket pool writes back for a health request. */
export function healthResponse(secret: string): string {
  // Keep-alive: the tunnel server may reuse the socket, so a health check costs no socket.
  return `HTTP/1.1 204 ${STATUS_CODES[204]}\r\n${HEALTH_ECHO_HEADER}: ${secret}\r\n\r\n`
}

/** Compares the first bytes seen on a socket with the marker: decided, or more bytes needed. */
export function matchMarker(head: Buffer, marker: Buffer): 'match' | 'mismatch' | 'partial' {
  const n = Math.min(head.length, marker.length)
  if (head.subarray(0, n).compare(marker.subarray(0, n)) !== 0) return 'mismatch'
  return head.length >= marker.length ? 'match' : 'partial'
}

export interface HealthCheckOptions {
  publicUrl: string
  secret: string
  timeoutMs: number
  lookup: LookupFunction
  signal?: AbortSignal
}

/** Why a health check failed; `timedOut`: no answer within the deadline (perhaps only busy). */
export interface HealthProblem {
  message: string
  timedOut: boolean
}

/** Resolves to undefined when healthy, or to why not. Never rejects. */
export async function checkHealth(options: HealthCheckOptions): Promise<HealthProblem | undefined> {
  const url = new URL(`${options.publicUrl}${HEALTH_PATH_PREFIX}${options.secret}`)
  try {
    const answer = await httpGet(url, {
      timeoutMs: options.timeoutMs,
      lookup: options.lookup,
      signal: options.signal,
      // loca.lt shows browsers a reminder page; this header and a non-browser agent skip it.
      headers: { 'bypass-tunnel-reminder': '1', 'user-agent': 'hookloop-tunnel-health' },
      keepAlive: true,
      maxBodyBytes: 16 * 1024,
    })
    if (answer.headers[HEALTH_ECHO_HEADER] === options.secret) return undefined
    return { message: `health check through ${options.publicUrl} got HTTP ${answer.status} from something other than this tunnel`, timedOut: false }
  } catch (error) {
    if (error instanceof HttpGetError) return { message: `health check through ${options.publicUrl} failed: ${error.message}`, timedOut: error.code === 'timeout' }
    return { message: `health check through ${options.publicUrl} failed: ${String(error)}`, timedOut: false }
  }
}
