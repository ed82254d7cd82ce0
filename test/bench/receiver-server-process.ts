// Receiver benchmark, server under test (one process per target): a bare node:http server,
// mockttp with a rule that answers 200, or Hookloop's receiver capturing, verifying, deduping and
// persisting to a real SQLite file. Prints {"port":…} when ready; on SIGTERM it stops and prints
// what it stored (for Hookloop: rows on disk, valid signatures, duplicates).
import http from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getLocal } from 'mockttp'
import { createRealClock } from '../../electron/engine/clock'
import { createReceiver } from '../../electron/engine/receiver'
import { openDatabase } from '../../electron/engine/store'

const target = process.argv[2]
const secret = process.argv[3] ?? ''
const path = '/h/bench'

async function start(): Promise<{ port: number; stop: () => Promise<Record<string, number>> }> {
  switch (target) {
    case 'bare': {
      const server = http.createServer((req, res) => {
        req.resume()
        req.on('end', () => res.end('OK'))
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const address = server.address()
      return {
        port: typeof address === 'object' && address ? address.port : 0,
        stop: () => new Promise((resolve) => {
          server.close(() => resolve({}))
          server.closeAllConnections()
        }),
      }
    }
    case 'mockttp': {
      const server = getLocal()
      await server.start()
      await server.forPost(path).thenReply(200, 'OK')
      return { port: server.port, stop: async () => (await server.stop(), {}) }
    }
    case 'hookloop': {
      const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-'))
      const db = openDatabase({ file: join(dir, 'hookloop.db') })
      // As `hookloop listen` runs it: captures committed on the capture thread.
      const receiver = await createReceiver({ db, clock: createRealClock(), captureThread: true })
      receiver.endpoints.create({ slug: 'bench', scheme: 'standard-webhooks', secrets: [secret], dedupe: 'standard-webhooks' })
      return {
        port: receiver.port,
        async stop() {
          await receiver.close()
          const stats = db
            .prepare('SELECT count(*) AS rows, coalesce(sum(verify_valid), 0) AS valid, coalesce(sum(duplicate_number > 1), 0) AS duplicates FROM requests')
            .get() as Record<string, number>
          db.close()
          rmSync(dir, { recursive: true, force: true })
          return stats
        },
      }
    }
    default:
      throw new Error(`unknown target ${String(target)}`)
  }
}

const { port, stop } = await start()
// CPU time spent serving (start-up excluded): a figure the noisy shared machine disturbs less than req/s.
const cpuAtReady = process.cpuUsage()
process.stdout.write(JSON.stringify({ port }) + '\n')
process.once('SIGTERM', () => {
  const cpu = process.cpuUsage(cpuAtReady)
  void stop().then((stats) => {
    process.stdout.write(JSON.stringify({ stopped: true, cpuUs: cpu.user + cpu.system, ...stats }) + '\n')
    process.exit(0)
  })
})
