import { describe, expect, it } from 'vitest'
import { waitingOnClock } from '../../../electron/engine/clock'
import { verify } from '../../../electron/engine/signatures'
import { answer, attemptKey, attemptsFinished, closedAfterEach, startSender, startServer, type SenderRig } from './support'

// Two edges of the sender on a virtual clock, over real sockets: an answer that completes exactly
// at the timeout is in time (a timeout is *more* than timeout_ms), and the timestamp a URL target
// sees is the wall time while the schedule stays virtual.

describe('sender edges on a virtual clock', () => {
  const t = closedAfterEach()

  function sleepingReceiver(r: SenderRig, ms: number) {
    return startServer(r.clock, async (req, res) => {
      const resume = waitingOnClock(r.clock, attemptKey(req.headers))
      try {
        await r.clock.sleep(ms)
      } finally {
        resume()
      }
      if (!res.destroyed) answer(200)(req, res)
    })
  }

  /** One event to a fresh sender (the test's previous one closed) whose receiver answers 200 after `ms`; resolves with its first attempt. */
  async function firstAttempt(ms: number, id: string, n: number) {
    await t.rig?.close()
    await t.server?.close()
    t.rig = await startSender()
    t.server = await sleepingReceiver(t.rig, ms)
    await t.rig.sender.createSubscription({ id, target: { url: `${t.server.url}/${id}` }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    const finished = attemptsFinished(t.rig.sender, 1)
    await t.rig.sender.publish({ eventType: 'booking.created', payload: { id: n } })
    return (await finished)[0]
  }

  it('a 200 completing at exactly 10 000 ms (the policy timeout) succeeds; at 10 001 ms it is a timeout', async () => {
    const attempt = await firstAttempt(10_000, 'exact', 1)
    expect(attempt).toMatchObject({ outcome: 'http_200', statusCode: 200, durationMs: 10_000, decision: 'succeeded' })

    const lateAttempt = await firstAttempt(10_001, 'late', 2)
    expect(lateAttempt).toMatchObject({ outcome: 'timeout', durationMs: 10_000, decision: 'retry' })
  })

  it('a URL target is signed at wall time; the retry schedule stays on the virtual clock', async () => {
    const WALL = 1_900_000_000_000 // an injected wall clock, far from the virtual clock's 2023 start
    let wall = WALL
    t.rig = await startSender({ wallNow: () => wall })
    t.server = await startServer(t.rig.clock, answer(500))
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    await t.rig.sender.createSubscription({ id: 'sub', target: { url: `${t.server.url}/h` }, scheme: 'standard-webhooks', secrets: [secret], policy: 'pandoktorek' })
    const finished = attemptsFinished(t.rig.sender, 2)
    await t.rig.sender.publish({ eventType: 'booking.created', payload: { id: 1 } })
    await new Promise<void>((resolve) => {
      t.rig!.sender.on('attempt.finished', () => {
        wall += 1_000
        resolve()
      })
    })
    const attempts = await finished
    const [first, second] = t.server.requests
    expect(first!.headers['webhook-timestamp']).toBe(String(WALL / 1000))
    expect(second!.headers['webhook-timestamp']).toBe(String(WALL / 1000 + 1))
    // Two minutes apart on the virtual clock, one second apart on the wall.
    expect(attempts[1]!.startedAt - attempts[0]!.startedAt).toBe(2 * 60_000)
    expect(verify('standard-webhooks', { body: second!.body, headers: second!.headers, secrets: [secret], now: WALL / 1000 + 1 }).valid).toBe(true)
  })

  it("signingTime 'clock' keeps the clock's time (a receiver on the same virtual clock)", async () => {
    t.rig = await startSender({ signingTime: 'clock', wallNow: () => 1_900_000_000_000 })
    t.server = await startServer(t.rig.clock, answer(200))
    await t.rig.sender.createSubscription({ id: 'sub', target: { url: `${t.server.url}/h` }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    const finished = attemptsFinished(t.rig.sender, 1)
    await t.rig.sender.publish({ eventType: 'booking.created', payload: { id: 1 } })
    const [attempt] = await finished
    expect(t.server.requests[0]!.headers['webhook-timestamp']).toBe(String(Math.floor(attempt!.startedAt / 1000)))
  })
})
