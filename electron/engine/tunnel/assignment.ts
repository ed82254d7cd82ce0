import type { LookupFunction } from 'node:net'
import { z } from 'zod'
import { httpGet, HttpGetError } from './http-get'

/** What a localtunnel server grants: a public URL and a TCP port to open sockets to. */
export interface TunnelAssignment {
  /** The subdomain granted (may differ from the one asked for). */
  id: string
  url: string
  remoteHost: string
  remotePort: number
  maxSockets: number
}

/** The tunnel server could not grant a tunnel. `retryable` false: do not ask again. */
export class TunnelRequestError extends Error {
  override readonly name = 'TunnelRequestError'
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message)
  }
}

// The localtunnel server's subdomain rule: lowercase letters, digits and inner hyphens, 4–63 long.
const SUBDOMAIN = /^(?:[a-z0-9][a-z0-9-]{2,61}[a-z0-9]|[a-z0-9]{4,63})$/

/** Returns why a requested subdomain would be refused, or undefined when it is fine. */
export function subdomainProblem(name: string): string | undefined {
  if (SUBDOMAIN.test(name)) return undefined
  return `subdomain "${name}" is invalid: use 4 to 63 lowercase letters, digits or inner hyphens`
}

/** A server may ask for many sockets; more than this buys nothing and costs file descriptors. */
export const MAX_SOCKETS_CAP = 32

const assignmentBody = z.object({
  id: z.string().min(1).max(63),
  port: z.number().int().min(1).max(65535),
  max_conn_count: z.number().int().min(1).optional(),
  url: z.string().url(),
})

/**
 * Turns a tunnel server's answer body into an assignment. The sockets go to the server's own
 * host name: an `ip` field in the answer is ignored so a server cannot point them elsewhere.
 */
export function parseAssignment(body: unknown, serverHost: URL): TunnelAssignment {
  const parsed = assignmentBody.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'unexpected shape'
    throw new TunnelRequestError(`the tunnel server's answer is not a localtunnel assignment (${where})`, true)
  }
  const url = new URL(parsed.data.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TunnelRequestError(`the tunnel server gave a non-HTTP public URL: ${parsed.data.url}`, true)
  }
  return {
    id: parsed.data.id,
    url: parsed.data.url.replace(/\/+$/, ''),
    remoteHost: serverHost.hostname.replace(/^\[|\]$/g, ''),
    remotePort: parsed.data.port,
    maxSockets: Math.min(MAX_SOCKETS_CAP, parsed.data.max_conn_count ?? 1),
  }
}

/** `GET /?new` (any subdomain) or `GET /<subdomain>` on the server. */
export function assignmentUrl(serverHost: URL, subdomain: string | undefined): URL {
  const base = serverHost.href.endsWith('/') ? serverHost.href : `${serverHost.href}/`
  return new URL(subdomain === undefined ? '?new' : encodeURIComponent(subdomain), base)
}

export interface RequestAssignmentOptions {
  serverHost: URL
  subdomain?: string
  timeoutMs: number
  lookup: LookupFunction
  signal?: AbortSignal
}

/** Asks the tunnel server for a tunnel, with a deadline; classifies every failure. */
export async function requestAssignment(options: RequestAssignmentOptions): Promise<TunnelAssignment> {
  const url = assignmentUrl(options.serverHost, options.subdomain)
  let answer
  try {
    answer = await httpGet(url, {
      timeoutMs: options.timeoutMs,
      lookup: options.lookup,
      signal: options.signal,
      headers: { accept: 'application/json', 'user-agent': 'hookloop-tunnel' },
    })
  } catch (error) {
    if (error instanceof HttpGetError) throw new TunnelRequestError(`tunnel request failed: ${error.message}`, true)
    throw error
  }
  const message = serverMessage(answer.body)
  // 408 and 429 are the server asking us to come back later; every other 4xx is a refusal
  // (bad or forbidden subdomain, blocked client) that asking again will not change.
  if (answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429) {
    throw new TunnelRequestError(`the tunnel server refused (HTTP ${answer.status}${message ? `: ${message}` : ''})`, false, answer.status)
  }
  if (answer.status !== 200) {
    throw new TunnelRequestError(`the tunnel server answered HTTP ${answer.status}${message ? `: ${message}` : ''}`, true, answer.status)
  }
  let body: unknown
  try {
    body = JSON.parse(answer.body)
  } catch {
    throw new TunnelRequestError(`the tunnel server's answer is not JSON: ${answer.body.slice(0, 80)}`, true)
  }
  return parseAssignment(body, options.serverHost)
}

function serverMessage(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body)
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') return parsed.message.slice(0, 200)
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.trim().slice(0, 200)
}
