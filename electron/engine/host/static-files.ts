// Serves the built renderer (out/renderer) read-only, with the CSP and no-sniff headers. Only
// files under the root are reachable; anything else is a 404.
import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, resolve, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}

export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  }
}

export function createStaticHandler(rootDir: string, csp: string) {
  const root = resolve(rootDir)
  return async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = securityHeaders(csp)
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n')
      return
    }
    let pathname: string
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname)
    } catch {
      res.writeHead(400, { ...headers, 'content-type': 'text/plain' }).end('bad path\n')
      return
    }
    if (pathname.endsWith('/')) pathname += 'index.html'
    const file = resolve(join(root, normalize(pathname)))
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    try {
      const info = await stat(file)
      if (!info.isFile()) throw new Error('not a file')
      const body = await readFile(file)
      res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': body.length })
      res.end(req.method === 'HEAD' ? undefined : body)
    } catch {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('not found\n')
    }
  }
}
