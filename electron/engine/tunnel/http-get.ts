import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'

export interface HttpGetOptions {
  headers?: Record<string, string>
  /** The whole exchange (connect, headers, body) must finish within this. */
  timeoutMs: number
  lookup: LookupFunction
  signal?: AbortSignal
  /** Bodies past this are cut off: a tunnel server's answers are small. */
  maxBodyBytes?: number
  /** Send `Connection: keep-alive` (the connection is still closed after this one exchange). */
  keepAlive?: boolean
}

export interface HttpGetResult {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** Why a GET failed without an HTTP answer. */
export class HttpGetError extends Error {
  override readonly name = 'HttpGetError'
  constructor(
    message: string,
    readonly code: 'timeout' | 'aborted' | 'network' | 'too-large',
  ) {
    super(message)
  }
}

/**
 * One GET with a hard deadline. node:http (not fetch) because it takes a DNS `lookup` and a
 * deadline on the whole exchange, and because the tunnel must not depend on a global.
 */
export function httpGet(url: URL, options: HttpGetOptions): Promise<HttpGetResult> {
  const maxBody = options.maxBodyBytes ?? 64 * 1024
  const request = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined
  if (!request) return Promise.reject(new HttpGetError(`unsupported protocol ${url.protocol} in ${url.href}`, 'network'))
  const agent = options.keepAlive ? new (url.protocol === 'https:' ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: 1 }) : false
  return new Promise((resolve, reject) => {
    let settled = false
    const finish = (error: HttpGetError | undefined, result?: HttpGetResult) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      options.signal?.removeEventListener('abort', onAbort)
      if (agent) agent.destroy()
      if (error) {
        req.destroy()
        reject(error)
      } else resolve(result as HttpGetResult)
    }
    const req = request(url, { method: 'GET', headers: options.headers, lookup: options.lookup, agent }, (res) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBody) return finish(new HttpGetError(`answer from ${url.origin} is larger than ${maxBody} bytes`, 'too-large'))
        chunks.push(chunk)
      })
      res.on('end', () => finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', (error) => finish(new HttpGetError(`${url.origin}: ${error.message}`, 'network')))
    })
    const deadline = setTimeout(
      () => finish(new HttpGetError(`${url.origin} did not answer within ${options.timeoutMs} ms`, 'timeout')),
      options.timeoutMs,
    )
    const onAbort = () => finish(new HttpGetError('aborted', 'aborted'))
    if (options.signal?.aborted) return onAbort()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    req.on('error', (error: NodeJS.ErrnoException) => finish(new HttpGetError(`${url.origin}: ${error.code ?? error.message}`, 'network')))
    req.end()
  })
}
