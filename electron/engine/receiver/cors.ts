// A web page on another origin may POST to an endpoint (a browser-based sender, a test page): the
// browser first asks with a CORS preflight (OPTIONS + Origin + Access-Control-Request-Method). That
// question is the browser's, not the sender's: the receiver answers it itself (recorded like any
// request) and the endpoint's rules never see it — a fail rule answering it 500 would stop the page
// before it sends anything. The actual request's answer then carries Access-Control-Allow-Origin so
// the page can read it. Everything is `*` and nothing echoes the client: no credentials are ever
// allowed, and no request text reaches a response header unchecked.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PreparedReply } from './steps'

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
/** How long a browser may keep the answer (seconds): Chromium caps it at 7200. */
const MAX_AGE_S = '600'
/** A comma-separated list of header names (RFC 9110 tokens), bounded: it is echoed back. */
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/
const HEADER_LIST_MAX = 2048

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value)

export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && first(req.headers.origin) !== undefined && first(req.headers['access-control-request-method']) !== undefined
}

/** The receiver's own answer to a preflight: 204, any origin, every method, the headers asked for. */
export function preflightReply(req: IncomingMessage): PreparedReply {
  const asked = first(req.headers['access-control-request-headers'])?.trim() ?? ''
  const headers: [string, string][] = [
    ['access-control-allow-origin', '*'],
    ['access-control-allow-methods', ALLOWED_METHODS],
    ['access-control-max-age', MAX_AGE_S],
  ]
  // Echoed only as a plain list of header names; anything else gets no header list (the browser refuses then).
  if (asked !== '' && asked.length <= HEADER_LIST_MAX && HEADER_LIST.test(asked)) headers.push(['access-control-allow-headers', asked])
  headers.push(['content-length', '0'])
  return { status: 204, headers, body: Buffer.alloc(0), fault: null }
}

/** A request from a page (it carries Origin): whatever answers it, the page may read the answer. */
export function allowPageToRead(req: IncomingMessage, res: ServerResponse): void {
  if (first(req.headers.origin) === undefined) return
  res.setHeader('access-control-allow-origin', '*')
  res.setHeader('access-control-expose-headers', '*')
}
