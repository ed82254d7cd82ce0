import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { waitingOnClock } from '../../../electron/engine/clock'
import { answer, attemptKey, attemptsFinished, closedAfterEach, startSender, startServer } from './support'

// Every row of seed provider A's classification table, over real sockets on loopback, on a
// virtual clock: the first attempt's outcome, its decision and when the next one is due.

const MIN = 60_000

describe('seed A classification over real sockets', () => {
  const t = closedAfterEach()

  async function firstAttempt(url: string) {
    t.rig ??= await startSender()
    const { sender } = t.rig
    await sender.createSubscription({ id: 'sub', target: { url }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    const finished = attemptsFinished(sender, 1)
    const { deliveries } = await sender.publish({ eventType: 'booking.created', payload: { id: 1 } })
    const [attempt] = await finished
    const delivery = (await sender.getDelivery(deliveries[0]?.id ?? -1)).delivery
    return { attempt: attempt!, delivery }
  }

  for (const status of [200, 201, 204]) {
    it(`${status} → succeeded, no retry`, async () => {
      t.server = await startServer((t.rig = await startSender()).clock, answer(status))
      const { attempt, delivery } = await firstAttempt(`${t.server.url}/hook`)
      expect(attempt).toMatchObject({ outcome: `http_${status}`, statusCode: status, decision: 'succeeded', nextAttemptAt: null })
      expect(delivery.status).toBe('succeeded')
    })
  }

  for (const status of [301, 302]) {
    it(`${status} → failed, no retry, the redirect is not followed`, async () => {
      t.server = await startServer((t.rig = await startSender()).clock, (req, res) => {
        if (req.url === '/moved') return answer(200)(req, res)
        res.writeHead(status, { location: '/moved' })
        res.end()
      })
      const { attempt, delivery } = await firstAttempt(`${t.server.url}/hook`)
      expect(attempt).toMatchObject({ outcome: `http_${status}`, decision: 'failed', nextAttemptAt: null })
      expect(delivery.status).toBe('failed')
      expect(t.server.requests.map((r) => r.path)).toEqual(['/hook'])
    })
  }

  for (const status of [400, 401, 403, 404, 409, 422]) {
    it(`${status} → failed, final`, async () => {
      t.server = await startServer((t.rig = await startSender()).clock, answer(status))
      const { attempt, delivery } = await firstAttempt(`${t.server.url}/hook`)
      expect(attempt).toMatchObject({ outcome: `http_${status}`, decision: 'failed', nextAttemptAt: null })
      expect(delivery.status).toBe('failed')
    })
  }

  for (const status of [500, 502, 503]) {
    it(`${status} → retrying, next attempt 2 min later`, async () => {
      t.server = await startServer((t.rig = await startSender()).clock, answer(status))
      const { attempt, delivery } = await firstAttempt(`${t.server.url}/hook`)
      expect(attempt).toMatchObject({ outcome: `http_${status}`, decision: 'retry' })
      expect(attempt.nextAttemptAt! - attempt.startedAt).toBe(2 * MIN)
      expect(delivery).toMatchObject({ status: 'retrying', nextAttemptAt: attempt.nextAttemptAt })
    })
  }

  it('a receiver that sleeps 11 s on the same virtual clock → timeout at exactly 10 000 ms, retrying', async () => {
    t.rig = await startSender()
    const { clock } = t.rig
    t.server = await startServer(clock, async (req, res) => {
      // The receiver parks the sender's hold while it waits on the clock (what a loop-mode receiver does).
      const resume = waitingOnClock(clock, attemptKey(req.headers))
      try {
        await clock.sleep(11_000)
      } finally {
        resume()
      }
      if (!res.destroyed) answer(200)(req, res)
    })
    const { attempt, delivery } = await firstAttempt(`${t.server.url}/slow`)
    expect(attempt).toMatchObject({ outcome: 'timeout', statusCode: null, durationMs: 10_000, decision: 'retry' })
    expect(attempt.nextAttemptAt! - attempt.startedAt).toBe(10_000 + 2 * MIN)
    expect(delivery.status).toBe('retrying')
  })

  it('connection refused → retrying', async () => {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const port = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const { attempt, delivery } = await firstAttempt(`http://127.0.0.1:${port}/hook`)
    expect(attempt).toMatchObject({ outcome: 'connection_refused', decision: 'retry' })
    expect(delivery.status).toBe('retrying')
  })

  it('DNS failure (a name under .invalid) → retrying', async () => {
    const { attempt, delivery } = await firstAttempt('http://hookloop-sender-test.invalid/hook')
    expect(attempt).toMatchObject({ outcome: 'dns', decision: 'retry' })
    expect(attempt.error).toMatch(/ENOTFOUND|EAI_/)
    expect(delivery.status).toBe('retrying')
  })

  it('a connection reset mid-request → reset, retrying', async () => {
    t.server = await startServer((t.rig = await startSender()).clock, (req) => {
      req.socket.resetAndDestroy()
    })
    const { attempt } = await firstAttempt(`${t.server.url}/hook`)
    expect(attempt).toMatchObject({ outcome: 'reset', decision: 'retry' })
  })
})
