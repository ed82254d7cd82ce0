import type { IncomingHttpHeaders } from 'node:http'
import type { LookupFunction } from 'node:net'
import { Client } from 'undici'

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
 * One GET with a hard deadline, on a connection of its own that is closed after it. undici, the
 * engine's one HTTP client, with the caller's DNS `lookup` and a deadline on the whole exchange.
 */
export async function httpGet(url: URL, options: HttpGetOptions): Promise<HttpGetResult> {
  const maxBody = options.maxBodyBytes ?? 64 * 1024
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new HttpGetError(`unsupported protocol ${url.protocol} in ${url.href}`, 'network')
  if (options.signal?.aborted) throw new HttpGetError('aborted', 'aborted')
  const client = new Client(url.origin, { connect: { lookup: options.lookup } })
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal
  try {
    const headers = { ...options.headers, connection: options.keepAlive ? 'keep-alive' : 'close' }
    const res = await client.request({ path: `${url.pathname}${url.search}`, method: 'GET', headers, signal })
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > maxBody) throw new HttpGetError(`answer from ${url.origin} is larger than ${maxBody} bytes`, 'too-large')
      chunks.push(chunk)
    }
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }
  } catch (error) {
    if (error instanceof HttpGetError) throw error
    if (deadline.signal.aborted) throw new HttpGetError(`${url.origin} did not answer within ${options.timeoutMs} ms`, 'timeout')
    if (options.signal?.aborted) throw new HttpGetError('aborted', 'aborted')
    const { code, message } = error as NodeJS.ErrnoException
    throw new HttpGetError(`${url.origin}: ${code ?? message}`, 'network')
  } finally {
    clearTimeout(timer)
    void client.destroy()
  }
}
