// What every benchmark server process shares (receiver-server-process, forward-proxy-process):
// a plain node:http server listened on loopback, Hookloop's receiver over a fresh SQLite file as
// `hookloop listen` runs it (captures committed on the capture thread), and the protocol with the
// benchmark: print {"port":…} when ready; on SIGTERM stop, then print what was stored and the CPU
// time spent serving (start-up excluded: a figure the noisy shared machine disturbs less than req/s).
import type http from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import { createRealClock } from '../../electron/engine/clock'
import { createReceiver, type Receiver } from '../../electron/engine/receiver'
import { openDatabase } from '../../electron/engine/store'

export interface BenchServer {
  port: number
  stop(): Promise<Record<string, number>>
}

/** Listens `server` on 127.0.0.1; stop() closes it and every connection. */
export async function httpBenchServer(server: http.Server, extra: () => Record<string, number> = () => ({})): Promise<BenchServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve(extra()))
        server.closeAllConnections()
      }),
  }
}

/** Hookloop's receiver on a fresh file; `stats` reads what it stored once it is closed. */
export async function hookloopBenchServer(setup: (receiver: Receiver) => unknown, stats: string, options: { schemaVerdicts?: boolean } = {}): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-'))
  const db: Database = openDatabase({ file: join(dir, 'hookloop.db') })
  const receiver = await createReceiver({ db, clock: createRealClock(), captureThread: true, ...options })
  await setup(receiver)
  return {
    port: receiver.port,
    async stop() {
      // Verdicts still queued are judged before the count (the load has stopped): what the target did.
      await receiver.schemaVerdicts.idle()
      await receiver.close()
      const stored = db.prepare(stats).get() as Record<string, number>
      db.close()
      rmSync(dir, { recursive: true, force: true })
      return stored
    },
  }
}

/** Runs a server process: announces its port, and on SIGTERM its CPU time and what it stored. */
export async function serveBench(start: () => Promise<BenchServer>): Promise<void> {
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
}
