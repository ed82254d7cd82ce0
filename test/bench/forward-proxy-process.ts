// Forward benchmark, one process per server: the bare target app (node:http answering 200), or a
// proxy in front of it doing the same hop: a bare node:http proxy (keep-alive agent, streams
// piped), mockttp forwarding (thenForwardTo), or Hookloop's receiver capturing every request to
// SQLite (capture thread, as `hookloop listen` runs it) and forwarding it (an endpoint's
// forward_to). Protocol and CPU accounting: bench-server.ts.
import http from 'node:http'
import { getLocal } from 'mockttp'
import { hookloopBenchServer, httpBenchServer, serveBench, type BenchServer } from './bench-server'

const role = process.argv[2]
const targetUrl = process.argv[3] ?? ''

async function start(): Promise<BenchServer> {
  switch (role) {
    case 'target': {
      let seen = 0
      const server = http.createServer((req, res) => {
        req.resume()
        req.on('end', () => {
          seen++
          res.writeHead(200, { 'content-type': 'text/plain' }).end('OK')
        })
      })
      return httpBenchServer(server, () => ({ seen }))
    }
    case 'bare': {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
      const target = new URL(targetUrl)
      const server = http.createServer((req, res) => {
        const out = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: { ...req.headers, host: target.host }, agent }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        })
        out.on('error', () => res.writeHead(502).end())
        req.pipe(out)
      })
      const served = await httpBenchServer(server)
      return { port: served.port, stop: () => (agent.destroy(), served.stop()) }
    }
    case 'mockttp': {
      const server = getLocal()
      await server.start()
      await server.forPost('/h/bench').thenForwardTo(new URL(targetUrl).origin)
      return { port: server.port, stop: async () => (await server.stop(), {}) }
    }
    case 'hookloop':
      return hookloopBenchServer(
        (receiver) => receiver.endpoints.create({ slug: 'bench', forward_to: targetUrl }),
        "SELECT (SELECT count(*) FROM requests) AS rows, (SELECT count(*) FROM forward_legs WHERE outcome = 'answered') AS legs",
      )
    default:
      throw new Error(`unknown role ${String(role)}`)
  }
}

await serveBench(start)
