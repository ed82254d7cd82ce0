// Benchmark process 2: Hookloop's side — a receiver and the tunnel manager in one process, as
// in the engine. The receiver is a minimal node:http server so the figure measures the tunnel,
// not capture; it answers a small JSON 200 to every request.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTunnelManager } from '../../electron/engine/tunnel'

const tunnelHost = process.argv[2]
if (!tunnelHost) throw new Error('usage: tunnel-app-process <tunnel server URL>')
const receiver = createServer({ headersTimeout: 0, requestTimeout: 0, keepAliveTimeout: 30_000 }, (req, res) => {
  req.resume()
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"received":true}')
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const receiverPort = (receiver.address() as AddressInfo).port
const manager = createTunnelManager({ localPort: receiverPort, host: tunnelHost, healthIntervalMs: 30_000 })
manager.on('state', (state) => {
  if (state.kind === 'online') process.send?.({ receiverPort, publicUrl: state.url })
  if (state.kind === 'offline') throw new Error(`tunnel offline: ${state.reason}`)
})
manager.start()
process.on('disconnect', () => {
  void manager.stop().then(() => {
    receiver.close()
    process.exit(0)
  })
})
