// Forward benchmark, latency at low load: one request at a time on one keep-alive connection,
// each timed with the high-resolution clock (autocannon's histogram rounds to whole ms, more than
// a loopback hop takes). Sends {p50, p99} in µs over IPC.
import http from 'node:http'

const { url, requests } = JSON.parse(process.argv[2] ?? '{}') as { url: string; requests: number }
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const body = JSON.stringify({ type: 'invoice.paid', data: { id: 'inv_1', amount: 4200, currency: 'EUR' } })

function once(i: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'webhook-id': `msg_${process.pid}_${i}`, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume()
      res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1000) : reject(new Error(`status ${res.statusCode}`))))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const times: number[] = []
for (let i = 0; i < requests; i++) times.push(await once(i))
// The first tenth warms up the connection and the JIT.
const kept = times.slice(Math.floor(requests / 10)).sort((a, b) => a - b)
const at = (q: number) => kept[Math.min(kept.length - 1, Math.floor(q * kept.length))] ?? 0
process.send?.({ p50: at(0.5), p99: at(0.99) })
agent.destroy()
