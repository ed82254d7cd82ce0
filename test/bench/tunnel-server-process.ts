// Benchmark process 1: the loopback localtunnel-protocol server (test equipment). argv[2]
// "reuse" keeps every tunnel socket for the next request; otherwise localtunnel-server's policy.
import { createTunnelServer } from '../support/tunnel-server'

const server = await createTunnelServer({ maxSockets: 10, socketWaitMs: 30_000, reuseSockets: process.argv[2] === 'reuse' })
process.send?.({ port: server.port, url: server.url })
process.on('disconnect', () => void server.stop().then(() => process.exit(0)))
