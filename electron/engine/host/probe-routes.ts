// The routes a process manager and a monitoring system read on the control server's port:
// GET /livez, /readyz and /metrics. They answer without the UI's token and before its Host check
// (an orchestrator's probe names the server by whatever address it reaches it at), so they say
// nothing a stranger may not know: no path, no id, no secret, only states and counts. An optional
// metrics token puts /metrics behind `Authorization: Bearer <token>`.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tokenMatches } from './guard'
import type { HostMetrics } from './metrics'

export const PROBE_PATHS = ['/livez', '/readyz', '/metrics'] as const

/** Why the server is not ready, in one line; null when it is. */
export type Readiness = () => Promise<string | null>

export interface ProbeRoutesOptions {
  readiness: Readiness
  metrics: HostMetrics
  /** When set, /metrics answers only to `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string
}

const NO_STORE = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { ...NO_STORE, 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`)
}

function bearer(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  return match?.[1] ?? null
}

/** Answers the probe paths (true) or leaves the request to the rest of the server (false). */
export function createProbeRoutes(options: ProbeRoutesOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (!(PROBE_PATHS as readonly string[]).includes(path ?? '')) return false
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...NO_STORE, allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('GET only\n')
      return true
    }
    switch (path) {
      case '/livez':
        // Answering at all is the proof: the event loop runs.
        json(res, 200, { status: 'live' })
        return true
      case '/readyz':
        options.readiness().then(
          (reason) => (reason === null ? json(res, 200, { status: 'ready' }) : json(res, 503, { status: 'not ready', reason })),
          () => json(res, 503, { status: 'not ready', reason: 'the readiness check failed' }),
        )
        return true
      default:
        if (options.metricsToken !== undefined && !tokenMatches(options.metricsToken, bearer(req))) {
          // No word on why: a wrong token and a missing one look the same.
          res.writeHead(401, { ...NO_STORE, 'www-authenticate': 'Bearer', 'content-type': 'text/plain' }).end('unauthorized\n')
          return true
        }
        options.metrics.text().then(
          (text) => res.writeHead(200, { ...NO_STORE, 'content-type': options.metrics.contentType }).end(text),
          () => res.writeHead(500, { ...NO_STORE, 'content-type': 'text/plain' }).end('the metrics could not be collected\n'),
        )
        return true
    }
  }
}
