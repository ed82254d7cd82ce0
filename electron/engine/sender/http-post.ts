import { request, type Dispatcher } from 'undici'
import type { Clock } from '../../../shared/clock'
import { httpOutcome, type AttemptOutcome } from '../../../shared/policy'
import { classifyNetworkError } from './classify-error'

// One HTTP POST of one attempt. The timeout runs on the injected clock (so a virtual clock decides
// it exactly), redirects are followed only when asked, and the response is kept bounded.
// undici's request() is used for speed; the benchmark's bare loop uses the same client.

export interface PostInput {
  url: string
  headers: Record<string, string>
  body: Buffer
  clock: Clock
  timeoutMs: number
  /** Redirect hops to follow (0 = the 3xx is the outcome). */
  followRedirects: number
  /** Response body bytes kept; the rest is read and dropped. */
  maxResponseBytes: number
  dispatcher: Dispatcher
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

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

async function readBounded(body: Dispatcher.ResponseData['body'], limit: number, contentLength: string | string[] | undefined): Promise<Buffer> {
  // The common case (a declared length within the limit) reads in one go, without a stream loop.
  const declared = typeof contentLength === 'string' ? Number(contentLength) : NaN
  if (declared <= limit) return Buffer.from(await body.arrayBuffer())
  const chunks: Buffer[] = []
  let kept = 0
  for await (const chunk of body) {
    const buf = chunk as Buffer
    if (kept >= limit) continue // keep reading so the connection can be reused
    const room = limit - kept
    chunks.push(buf.length > room ? buf.subarray(0, room) : buf)
    kept += Math.min(room, buf.length)
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
}

export async function postOnce(input: PostInput): Promise<PostResult> {
  const { clock } = input
  const started = clock.now()
  const controller = new AbortController()
  const timeout = clock.setTimer(input.timeoutMs, () => controller.abort(new AttemptTimeout(`no complete response within ${input.timeoutMs} ms`)))
  let url = input.url
  try {
    for (let hop = 0; ; hop++) {
      const response = await request(url, {
        method: 'POST',
        headers: input.headers,
        body: input.body,
        dispatcher: input.dispatcher,
        signal: controller.signal,
      })
      const location = response.headers.location
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string' && hop < input.followRedirects) {
        await response.body.dump()
        url = new URL(location, url).toString()
        continue
      }
      const body = await readBounded(response.body, input.maxResponseBytes, response.headers['content-length'])
      return {
        outcome: httpOutcome(response.statusCode),
        statusCode: response.statusCode,
        responseHeaders: flattenHeaders(response.headers),
        responseBody: body,
        durationMs: clock.now() - started,
        error: null,
        finalUrl: url,
      }
    }
  } catch (error) {
    const timedOut = controller.signal.aborted && controller.signal.reason instanceof AttemptTimeout
    return {
      outcome: timedOut ? 'timeout' : classifyNetworkError(error),
      statusCode: null,
      responseHeaders: null,
      responseBody: null,
      durationMs: clock.now() - started,
      error: timedOut ? (controller.signal.reason as Error).message : describeError(error),
      finalUrl: url,
    }
  } finally {
    timeout.cancel()
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
