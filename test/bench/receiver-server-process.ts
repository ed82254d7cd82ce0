// Receiver benchmark, server under test (one process per target): a bare node:http server,
// mockttp with a rule that answers 200, or Hookloop's receiver capturing, verifying, deduping and
// persisting to a real SQLite file (the same with a breakpoint that matches nothing, and for GitHub
// deliveries with the schema verdict on and off). Protocol and CPU accounting: bench-server.ts.
import http from 'node:http'
import { getLocal } from 'mockttp'
import { hookloopBenchServer, httpBenchServer, serveBench, type BenchServer } from './bench-server'

const target = process.argv[2]
const secret = process.argv[3] ?? ''
const path = '/h/bench'

async function start(): Promise<BenchServer> {
  switch (target) {
    case 'bare':
      return httpBenchServer(
        http.createServer((req, res) => {
          req.resume()
          req.on('end', () => res.end('OK'))
        }),
      )
    case 'mockttp': {
      const server = getLocal()
      await server.start()
      await server.forPost(path).thenReply(200, 'OK')
      return { port: server.port, stop: async () => (await server.stop(), {}) }
    }
    case 'hookloop':
      return hookloopBenchServer(
        (receiver) => receiver.endpoints.create({ slug: 'bench', scheme: 'standard-webhooks', secrets: [secret], dedupe: 'standard-webhooks' }),
        'SELECT count(*) AS rows, coalesce(sum(verify_valid), 0) AS valid, coalesce(sum(duplicate_number > 1), 0) AS duplicates FROM requests',
      )
    // (c) with a breakpoint that matches none of its requests (docs/breakpoints.md): what having
    // one costs the requests it lets by.
    case 'hookloop-breakpoint':
      return hookloopBenchServer(
        async (receiver) => {
          const endpoint = await receiver.endpoints.create({ slug: 'bench', scheme: 'standard-webhooks', secrets: [secret], dedupe: 'standard-webhooks' })
          receiver.breakpoints.put({ endpointId: endpoint.id, matchers: [{ type: 'header', name: 'x-hold-me', value: 'yes' }], limitMs: 10_000 })
        },
        'SELECT count(*) AS rows, coalesce(sum(verify_valid), 0) AS valid, coalesce(sum(duplicate_number > 1), 0) AS duplicates FROM requests',
      )
    // The same receiver, a GitHub endpoint, real GitHub deliveries: each body held against GitHub's
    // webhooks document after its answer (on), or not (off).
    case 'github-schema-on':
    case 'github-schema-off':
      return hookloopBenchServer(
        (receiver) => receiver.endpoints.create({ slug: 'bench', scheme: 'github', secrets: [secret], dedupe: 'auto' }),
        `SELECT count(*) AS rows, coalesce(sum(verify_valid), 0) AS valid, (SELECT count(*) FROM request_schema_verdicts WHERE verdict = 'valid') AS schema_valid FROM requests`,
        { schemaVerdicts: target === 'github-schema-on' },
      )
    default:
      throw new Error(`unknown target ${String(target)}`)
  }
}

await serveBench(start)
