// Receiver benchmark, load generator: autocannon in a process of its own (it must not share an
// event loop with the server it measures). Every request is a fresh Standard Webhooks message —
// its own webhook-id and a valid signature — so Hookloop verifies and dedupes real work; or, for
// the schema verdict's targets, a real GitHub delivery.
import { createHmac, randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'

// autocannon ships no type declarations: describe the part used here.
interface RawRequest {
  headers?: Record<string, string>
  body?: string
}
interface AutocannonResult {
  requests: { total: number; average: number }
  latency: { p50: number; p99: number }
  duration: number
  errors: number
  timeouts: number
  non2xx: number
  '2xx': number
}
type Autocannon = (options: {
  url: string
  connections: number
  duration: number
  requests: { method: string; setupRequest: (request: RawRequest) => RawRequest }[]
}) => Promise<AutocannonResult>
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

interface Job {
  url: string
  connections: number
  durationS: number
  secret: string
  delivery?: 'standard-webhooks' | 'github'
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job
const key = Buffer.from(job.secret.replace(/^whsec_/, ''), 'base64')
let n = 0

function signed(): { headers: Record<string, string>; body: string } {
  const id = `msg_${randomUUID()}`
  const timestamp = String(Math.floor(Date.now() / 1000))
  n += 1
  const body = JSON.stringify({ type: 'invoice.paid', timestamp: new Date().toISOString(), data: { id: `inv_${n}`, amount: 4200, currency: 'EUR', customer: { id: 'cus_1', email: 'a@example.test' } } })
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
  return {
    body,
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
  }
}

// A real GitHub delivery (@octokit/webhooks-examples' pull_request.closed, valid against GitHub's
// webhooks document), a fresh X-GitHub-Delivery each, signed as GitHub signs (X-Hub-Signature-256).
const githubBody = JSON.stringify(
  (createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: { action?: string }[] }[]).find((e) => e.name === 'pull_request')?.examples.find((x) => x.action === 'closed'),
)
const githubSignature = `sha256=${createHmac('sha256', job.secret).update(githubBody).digest('hex')}`
function github(): { headers: Record<string, string>; body: string } {
  return {
    body: githubBody,
    // Every header GitHub sends with a delivery: its webhooks document requires them (the verdict checks).
    headers: {
      'user-agent': 'GitHub-Hookshot/044aadd',
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-github-hook-id': '292430182',
      'x-github-hook-installation-target-id': '79929171',
      'x-github-hook-installation-target-type': 'repository',
      'x-hub-signature-256': githubSignature,
    },
  }
}
const delivery = job.delivery === 'github' ? github : signed

const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.durationS,
  requests: [
    {
      method: 'POST',
      setupRequest: (request) => {
        const { headers, body } = delivery()
        return { ...request, headers: { ...request.headers, ...headers }, body }
      },
    },
  ],
})
process.send?.({
  requests: result.requests.total,
  ok2xx: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  durationS: result.duration,
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
})
