// The benchmark's receiver, in its own process: a plain node:http server on loopback that fails
// the first 3 attempts of each event id (503) and answers 200 from the 4th on. Prints its port.
import { createServer } from 'node:http'

const seen = new Map()
const server = createServer({ keepAliveTimeout: 30_000, headersTimeout: 0, requestTimeout: 0 }, (req, res) => {
  const id = req.headers['webhook-id'] ?? req.headers['x-bench-id'] ?? ''
  const n = (seen.get(id) ?? 0) + 1
  seen.set(id, n)
  req.on('data', () => {})
  req.on('end', () => {
    res.writeHead(n <= 3 ? 503 : 200, { 'content-type': 'text/plain' })
    res.end(n <= 3 ? 'busy' : 'ok')
  })
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`)
})
process.on('message', (message) => {
  if (message === 'reset') {
    seen.clear()
    process.send?.('reset-done')
  }
})
