// A team's PostgreSQL taken away while `serve` runs on it (the host of `hookloop serve --store
// postgres://…`, on a real server from usePostgres): stopped outright (nothing answers on its port)
// and, apart, with every connection ended by pg_terminate_backend. While it is gone the receiver
// answers 503 with Retry-After, /readyz says not ready and no delivery is claimed or sent; once it
// is back captures and deliveries go on by themselves, and the stored requests are exactly the
// ones the senders were answered 2xx (plus any answered 503 whose row was queued as the store went
// away, stored with that 503), each whole, none twice.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { Host } from '../../../electron/engine/host/run-host'
import { usePostgres } from '../../support/use-postgres'
import { eventually, useTeamHosts } from './support/team-hosts'

const postgres = usePostgres()
const teams = useTeamHosts()
const { cleanups } = teams
const hostOn = async (url: string): Promise<Host> => (await teams.hostOn(url)).host

interface Answer {
  n: number
  status: number
  retryAfter: string | null
}

/** A sender of numbered captures, keeping what it was answered. */
function capturer(url: string) {
  const answers: Answer[] = []
  let n = 0
  return {
    answers,
    async send(): Promise<Answer> {
      const mine = ++n
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: mine }), signal: AbortSignal.timeout(60_000) })
      await res.arrayBuffer()
      const answer = { n: mine, status: res.status, retryAfter: res.headers.get('retry-after') }
      answers.push(answer)
      return answer
    },
  }
}

const readyz = async (host: Host) => (await fetch(`${host.control.origin}/readyz`)).status

/** The stored captures: n → the status stored with it; every row whole (its body, its answer). */
async function storedCaptures(host: Host): Promise<Map<number, number>> {
  await host.engine.receiver.requests.committed()
  const rows = await host.engine.store.engine.all<{ body: Buffer; response_status: number | null }>('SELECT body, response_status FROM requests ORDER BY id')
  const stored = new Map<number, number>()
  for (const row of rows) {
    const { n } = JSON.parse(row.body.toString()) as { n: number }
    expect(stored.has(n), `capture ${n} stored twice`).toBe(false)
    expect(row.response_status, `capture ${n} stored without its answer`).not.toBeNull()
    stored.set(n, row.response_status as number)
  }
  return stored
}

/** Every 2xx answer has its row; every row was answered as stored; what was refused with no row was a 503 with Retry-After. */
function expectStoredAsAnswered(answers: readonly Answer[], stored: ReadonlyMap<number, number>): void {
  for (const answer of answers) {
    if (answer.status >= 200 && answer.status < 300) expect(stored.get(answer.n), `capture ${answer.n} answered ${answer.status}`).toBe(answer.status)
    else {
      expect(answer, `capture ${answer.n}`).toMatchObject({ status: 503, retryAfter: '5' })
      if (stored.has(answer.n)) expect(stored.get(answer.n), `capture ${answer.n} answered 503`).toBe(503)
    }
  }
  expect([...stored.keys()].every((n) => answers.some((a) => a.n === n))).toBe(true)
}

/** A consumer: each event's arrivals counted; `answer` decides each arrival's response. */
async function consumer(answer: (eventId: string, arrival: number, res: ServerResponse) => void): Promise<{ url: string; arrivals: Map<string, number> }> {
  const arrivals = new Map<string, number>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const { event_id: eventId } = JSON.parse(body) as { event_id: string }
      const arrival = (arrivals.get(eventId) ?? 0) + 1
      arrivals.set(eventId, arrival)
      answer(eventId, arrival, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`, arrivals }
}

describe('a team PostgreSQL lost while serve runs on it', () => {
  // A server HOOKLOOP_TEST_POSTGRES names is not ours to stop.
  it.skipIf(Boolean(process.env.HOOKLOOP_TEST_POSTGRES))('stopped: 503 + Retry-After and not ready while it is gone, deliveries wait, and everything goes on once it is back', async () => {
    const outage = postgres.outage
    if (!outage) throw new Error('the test server cannot be stopped and started again')
    const url = await postgres.freshDatabase()
    const host = await hostOn(url)
    await host.engine.receiver.endpoints.create({ slug: 'lost' })
    const captures = capturer(host.engine.receiver.endpointUrl('lost'))
    const RETRY_MS = 1_500
    let tellHeld: () => void = () => {}
    const heldIn = new Promise<void>((resolve) => (tellHeld = resolve))
    let releaseHeld: () => void = () => {}
    const release = new Promise<void>((resolve) => (releaseHeld = resolve))
    const target = await consumer((eventId, arrival, res) => {
      if (eventId === 'evt_retried' && arrival === 1) return void res.writeHead(500).end('not yet')
      if (eventId === 'evt_held' && arrival === 1) {
        tellHeld()
        return void release.then(() => res.writeHead(200).end('ok'))
      }
      res.writeHead(200).end('ok')
    })
    const sender = host.engine.sender
    await sender.createSubscription({
      id: 'outage',
      target: { url: target.url },
      scheme: 'standard-webhooks',
      policy: { preset: 'custom', schedule: { kind: 'fixed', interval_ms: RETRY_MS }, max_attempts: 5, timeout_ms: 60_000 },
    })

    for (let i = 0; i < 5; i++) expect((await captures.send()).status).toBe(200)
    // One event whose first attempt fails (its retry falls due while the store is gone), one whose
    // first attempt is still at the consumer when the store goes (its outcome is recorded after).
    await sender.publish({ eventId: 'evt_retried', eventType: 'booking.created', payload: { i: 1 } })
    await sender.publish({ eventId: 'evt_held', eventType: 'booking.created', payload: { i: 2 } })
    await heldIn
    await eventually(() => (target.arrivals.get('evt_retried') === 1 ? true : undefined))
    const retryDueAt = Date.now() + RETRY_MS

    await outage.takeDown()
    const downAt = Date.now()
    releaseHeld()
    const during: Answer[] = []
    for (let i = 0; i < 8; i++) during.push(await captures.send())
    expect(during.map((a) => [a.status, a.retryAfter])).toEqual(during.map(() => [503, '5']))
    expect(await readyz(host)).toBe(503)
    // The retry falls due while the store is gone: nothing can claim it, so nothing is sent.
    await eventually(() => (Date.now() > retryDueAt + 500 ? true : undefined))
    expect(target.arrivals.get('evt_retried')).toBe(1)
    expect(await readyz(host)).toBe(503)

    await outage.bringBack()
    const backAt = Date.now()
    await eventually(async () => ((await readyz(host)) === 200 ? true : undefined))
    // Refused (503, Retry-After) until the receiver has heard the store is back, then taken.
    await eventually(async () => ((await captures.send()).status === 200 ? true : undefined))
    const firstTakenAt = Date.now()
    for (let i = 0; i < 5; i++) expect((await captures.send()).status).toBe(200)

    // Both deliveries end by themselves: the retry sent once the store is back, the held attempt's
    // outcome recorded (not sent again).
    const settledDelivery = async (eventId: string) =>
      eventually(async () => {
        const [delivery] = await sender.deliveriesOfEvent(eventId)
        return delivery?.status === 'succeeded' ? delivery : undefined
      })
    await settledDelivery('evt_retried')
    const heldDelivery = await settledDelivery('evt_held')
    expect(target.arrivals.get('evt_retried')).toBe(2)
    expect(target.arrivals.get('evt_held')).toBe(1)
    const { attempts } = await sender.getDelivery(heldDelivery.id)
    expect(attempts.map((a) => [a.n, a.outcome, a.decision])).toEqual([[1, 'http_200', 'succeeded']])

    const stored = await storedCaptures(host)
    expectStoredAsAnswered(captures.answers, stored)
    expect([...stored.values()].filter((status) => status === 200)).toHaveLength(captures.answers.filter((a) => a.status === 200).length)
    console.log(`store stopped for ${backAt - downAt} ms; captures taken again ${firstTakenAt - backAt} ms after it was back; answered: ${captures.answers.filter((a) => a.status === 200).length} × 200, ${captures.answers.filter((a) => a.status === 503).length} × 503; stored ${stored.size}`)
  }, 120_000)

  it('connections ended (pg_terminate_backend): the pool and the change feed connect again, and nothing answered 2xx is missing', async () => {
    const url = await postgres.freshDatabase()
    const host = await hostOn(url)
    await host.engine.receiver.endpoints.create({ slug: 'cut' })
    const captures = capturer(host.engine.receiver.endpointUrl('cut'))
    for (let i = 0; i < 5; i++) expect((await captures.send()).status).toBe(200)
    const database = new URL(url).pathname.slice(1)
    const ended = await postgres.terminateConnections(database)
    expect(ended).toBeGreaterThan(0)
    // Whatever was on a cut connection is answered 503 and tried again; the rest goes on.
    for (let i = 0; i < 20; i++) await captures.send()
    await eventually(async () => ((await captures.send()).status === 200 ? true : undefined))
    expect(await readyz(host)).toBe(200)
    // The change feed listens again on a connection of its own.
    await eventually(async () => {
      const row = await host.engine.store.engine.get<{ n: number }>("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = ? AND application_name = 'hookloop (changes)'", [database])
      return Number(row?.n) === 1 ? true : undefined
    })
    expectStoredAsAnswered(captures.answers, await storedCaptures(host))
    console.log(`after ${ended} connections were ended: ${captures.answers.filter((a) => a.status === 503).length} of ${captures.answers.length} captures answered 503`)
  }, 120_000)
})
