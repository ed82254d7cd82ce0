import type { LookupFunction } from 'node:net'
import { httpGet } from './http-get'

// A health check through the public URL queues at the tunnel server behind every request the
// receiver is still holding (a "delay 58 s" rule on ten sockets holds them all), so its timeout
// alone cannot tell busy from dead. localtunnel-server answers GET /api/tunnels/<id>/status
// itself, without a tunnel socket: while it reports our sockets connected, the tunnel is alive and
// only busy. A server without that path (or one that forgot the tunnel) answers 404.

export type ServerView =
  /** The server knows the tunnel and counts this many sockets connected. */
  | { kind: 'connected'; sockets: number }
  /** The server answered but does not know the tunnel (or has no such path). */
  | { kind: 'unknown'; status: number }
  /** No answer within the deadline, or no connection. */
  | { kind: 'unreachable'; error: string }

export function tunnelStatusUrl(serverHost: URL, id: string): URL {
  const base = serverHost.href.endsWith('/') ? serverHost.href : `${serverHost.href}/`
  return new URL(`api/tunnels/${encodeURIComponent(id)}/status`, base)
}

/** Asks the tunnel server what it knows of tunnel `id`. Never rejects. */
export async function serverView(options: { serverHost: URL; id: string; timeoutMs: number; lookup: LookupFunction; signal?: AbortSignal }): Promise<ServerView> {
  try {
    const answer = await httpGet(tunnelStatusUrl(options.serverHost, options.id), {
      timeoutMs: options.timeoutMs,
      lookup: options.lookup,
      signal: options.signal,
      headers: { accept: 'application/json', 'user-agent': 'hookloop-tunnel' },
      maxBodyBytes: 16 * 1024,
    })
    if (answer.status !== 200) return { kind: 'unknown', status: answer.status }
    let body: unknown
    try {
      body = JSON.parse(answer.body)
    } catch {
      return { kind: 'unknown', status: answer.status }
    }
    const sockets = body && typeof body === 'object' && 'connected_sockets' in body ? body.connected_sockets : undefined
    if (typeof sockets !== 'number' || sockets < 1) return { kind: 'unknown', status: answer.status }
    return { kind: 'connected', sockets }
  } catch (error) {
    return { kind: 'unreachable', error: error instanceof Error ? error.message : String(error) }
  }
}
