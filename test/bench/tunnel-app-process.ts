// Benchmark process 2: Hookloop's side — a receiver and the tunnel manager in one process, as
// in the engine. argv[3] picks the receiver: "hookloop" is Hookloop's own (capture to a SQLite
// file, endpoint /h/bench answering 200), tunnel sockets handed to its HTTP server as the engine
// does; "hookloop-relay" is the same receiver reached through the tunnel's relay to its port (the
// path for a receiver in another process); "minimal" is a bare node:http server answering a
// small JSON 200 through the relay, so that the figure isolates the relay's own cost.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRealClock } from '../../electron/engine/clock'
import { createReceiver } from '../../electron/engine/receiver'
import { openDatabase } from '../../electron/engine/store'
import { createTunnelManager, type TunnelAcceptor, type TunnelManager } from '../../electron/engine/tunnel'
import { REAL_SERVER_DOMAIN, realServerLookup } from '../support/tunnel-server/real-server'

const tunnelHost = process.argv[2]
const kind = process.argv[3] ?? 'minimal'
if (!tunnelHost || (kind !== 'hookloop' && kind !== 'hookloop-relay' && kind !== 'minimal')) throw new Error('usage: tunnel-app-process <tunnel server URL> hookloop|hookloop-relay|minimal')

const holder: { manager?: TunnelManager } = {}
let receiverPort: number
let closeReceiver: () => Promise<void>
let accept: TunnelAcceptor | undefined
let handed = 0
if (kind !== 'minimal') {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-tunnel-'))
  const db = openDatabase({ file: join(dir, 'hookloop.db') })
  const receiver = await createReceiver({ db, clock: createRealClock(), publicUrl: () => holder.manager?.publicUrl() })
  await receiver.endpoints.create({ slug: 'bench' })
  receiverPort = receiver.port
  // Counted: every socket handed over is one the tunnel server took (a new one per request when
  // the server closes sockets after their answers).
  if (kind === 'hookloop')
    accept = (socket, tap) => {
      handed++
      receiver.accept(socket, tap)
    }
  closeReceiver = async () => {
    await receiver.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
} else {
  const server = createServer({ headersTimeout: 0, requestTimeout: 0, keepAliveTimeout: 30_000 }, (req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"received":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiverPort = (server.address() as AddressInfo).port
  closeReceiver = () => new Promise((resolve) => server.close(() => resolve()))
}

// The real localtunnel server is reached by name (lt.test → 127.0.0.1); the test server by IP.
const lookup = new URL(tunnelHost).hostname === REAL_SERVER_DOMAIN ? realServerLookup : undefined
const manager = createTunnelManager({ localPort: receiverPort, accept, host: tunnelHost, healthIntervalMs: 30_000, ...(lookup ? { lookup } : {}) })
holder.manager = manager
let announced = false
manager.on('state', (state) => {
  if (state.kind === 'online' && !announced) {
    announced = true
    process.send?.({ receiverPort, publicUrl: state.url })
  }
  if (state.kind === 'offline') throw new Error(`tunnel offline: ${state.reason}`)
})
manager.start()
// CPU time of this process (receiver + tunnel), asked for around each measured run: the figure
// a shared machine disturbs least.
process.on('message', (message: unknown) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage()
    process.send?.({ cpuUs: user + system, handed })
  }
})
process.on('disconnect', () => {
  void manager
    .stop()
    .then(closeReceiver)
    .then(() => process.exit(0))
})
