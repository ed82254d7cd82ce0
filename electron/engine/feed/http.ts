// The /api/v1/ routes on the receiver's server. Not webhooks: they are answered here and never
// captured as requests. Only GET /api/v1/events exists; the rest of /api/v1/ is a JSON 404/405.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { API_PATH_PREFIX, FEED_PATH, type FeedErrorBody } from '../../../shared/contract'
import type { EventFeed } from './feed'
import { parseFeedQuery } from './query'

/** Answers the request and returns true when it is an API path; false leaves it to the receiver. */
export type ApiRoute = (req: IncomingMessage, res: ServerResponse) => boolean

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body))
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length), 'cache-control': 'no-store', ...extra })
  res.end(bytes)
}

export function createApiRoute(feed: EventFeed): ApiRoute {
  return (req, res) => {
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    if (!path.startsWith(API_PATH_PREFIX)) return false
    // Whatever body came with it is not read: drain it so the connection can be reused.
    req.resume()
    if (path !== FEED_PATH) {
      const body: FeedErrorBody = { error: { code: 'not_found', message: `no API at ${path}; the feed is GET ${FEED_PATH}?updated_since=ISO-8601` } }
      sendJson(res, 404, body)
      return true
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const body: FeedErrorBody = { error: { code: 'method_not_allowed', message: `${FEED_PATH} answers GET only, got ${req.method ?? '?'}` } }
      sendJson(res, 405, body, { allow: 'GET, HEAD' })
      return true
    }
    const parsed = parseFeedQuery(new URLSearchParams(q === -1 ? '' : url.slice(q + 1)))
    if (!parsed.ok) {
      const body: FeedErrorBody = { error: { code: parsed.code, parameter: parsed.parameter, message: parsed.message } }
      sendJson(res, 400, body)
      return true
    }
    feed.page(parsed.query).then(
      (page) => sendJson(res, 200, page),
      (error: unknown) => sendJson(res, 500, { error: { code: 'internal', message: `the feed could not be read: ${error instanceof Error ? error.message : String(error)}` } }),
    )
    return true
  }
}
