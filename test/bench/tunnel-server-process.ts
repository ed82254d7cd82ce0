// Benchmark process 1: the loopback localtunnel-protocol server (test equipment). argv[2]
// "reuse" keeps every tunnel socket for the next request; otherwise localtunnel-server's policy.
// On request it also runs a plain reverse proxy to the receiver (the same node:http proxying,
// one hop, no tunnel): the cost of the server's proxying alone, for comparison.
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTunnelServer } from '../support/tunnel-server'

const server = await createTunnelServer({ maxSockets: 10, socketWaitMs: 30_000, reuseSockets: process.argv[2] === 'reuse' })
process.send?.({ port: server.port, url: server.url })

process.on('message', (message: { proxyTo?: number }) => {
  if (message.proxyTo === undefined) return
  const agent = new Agent({ keepAlive: true, maxSockets: 10, maxFreeSockets: 10 })
  const proxy = createServer((req, res) => {
    const upstream = request({ host: '127.0.0.1', port: message.proxyTo, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
      answer.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  proxy.listen(0, '127.0.0.1', () => process.send?.({ proxyPort: (proxy.address() as AddressInfo).port }))
})
process.on('disconnect', () => void server.stop().then(() => process.exit(0)))
