// Forward benchmark, one process per server: the bare target app (node:http answering 200), or a
// proxy in front of it doing the same hop: a bare node:http proxy (keep-alive agent, streams
// piped), mockttp forwarding (thenForwardTo), or Hookloop's receiver capturing every request to
// SQLite (capture thread, as `hookloop listen` runs it) and forwarding it (an endpoint's
// forward_to). Prints {"port":…} when ready; on SIGTERM prints what it stored and its CPU time.
import http from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getLocal } from 'mockttp'
import { createRealClock } from '../../electron/engine/clock'
import { createReceiver } from '../../electron/engine/receiver'
import { openDatabase } from '../../electron/engine/store'

const role = process.argv[2]
const targetUrl = process.argv[3] ?? ''

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return typeof address === 'object' && address ? address.port : 0
}

const closeServer = (server: http.Server) =>
  new Promise<Record<string, number>>((resolve) => {
    server.close(() => resolve({}))
    server.closeAllConnections()
  })

async function start(): Promise<{ port: number; stop: () => Promise<Record<string, number>> }> {
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
      const port = await listen(server)
      return { port, stop: async () => ({ ...(await closeServer(server)), seen }) }
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
      const port = await listen(server)
      return { port, stop: () => (agent.destroy(), closeServer(server)) }
    }
    case 'mockttp': {
      const server = getLocal()
      await server.start()
      await server.forPost('/h/bench').thenForwardTo(new URL(targetUrl).origin)
      return { port: server.port, stop: async () => (await server.stop(), {}) }
    }
    case 'hookloop': {
      const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-forward-'))
      const db = openDatabase({ file: join(dir, 'hookloop.db') })
      const receiver = await createReceiver({ db, clock: createRealClock(), captureThread: true })
      receiver.endpoints.create({ slug: 'bench', forward_to: targetUrl })
      return {
        port: receiver.port,
        async stop() {
          await receiver.close()
          const stats = db.prepare("SELECT (SELECT count(*) FROM requests) AS rows, (SELECT count(*) FROM forward_legs WHERE outcome = 'answered') AS legs").get() as Record<string, number>
          db.close()
          rmSync(dir, { recursive: true, force: true })
          return stats
        },
      }
    }
    default:
      throw new Error(`unknown role ${String(role)}`)
  }
}

const { port, stop } = await start()
const cpuAtReady = process.cpuUsage()
process.stdout.write(JSON.stringify({ port }) + '\n')
process.once('SIGTERM', () => {
  const cpu = process.cpuUsage(cpuAtReady)
  void stop().then((stats) => {
    process.stdout.write(JSON.stringify({ stopped: true, cpuUs: cpu.user + cpu.system, ...stats }) + '\n')
    process.exit(0)
  })
})
