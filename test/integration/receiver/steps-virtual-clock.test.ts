// Loop mode on the engine's virtual clock: the sender holds the clock for its attempt; the
// receiver parks that attempt while it waits on the clock, so long faults resolve at once.
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createVirtualClock, holdWork, type VirtualClock } from '../../../electron/engine/clock'
import type { PresetId } from '../../../shared/receiver'
import { linkFor, recordAttempt } from '../../support/attempt-rows'
import { post, send, startHarness, type Harness } from './support'

describe('fault waits on a virtual clock (loop mode)', () => {
  let h: Harness
  let clock: VirtualClock
  afterEach(async () => {
    await h?.stop()
    clock?.dispose()
  })

  /** A receiver on a fresh virtual clock with `preset` on /h/v, and an attempt holding the clock as the sender does. */
  async function holdingAttempt(preset: PresetId) {
    clock = createVirtualClock({ start: 1_700_000_000_000 })
    h = await startHarness({ clock })
    const e = await h.receiver.endpoints.create({ slug: 'v' })
    await h.receiver.rules.add(e.id, { preset })
    // Like the sender: a hold keyed by the attempt id, for (far) longer than the test may run.
    const attempt = recordAttempt(h.db)
    return { attempt, release: holdWork(clock, { key: String(attempt.id), maxRealMs: 600_000 }) }
  }

  it('an 11 s delay passes at once while the sender holds the clock for its attempt', async () => {
    const { attempt, release } = await holdingAttempt('slow')
    try {
      const result = await send(h.receiver.port, post('/h/v', '{}', { 'x-hookloop-attempt': linkFor(h.db, attempt, '{}') }))
      expect(result.responses[0]?.status).toBe(200)
    } finally {
      release()
    }
    const [record] = h.receiver.requests.list()
    expect(record?.attemptId).toBe(attempt.id)
    expect(record?.response.ms).toBe(11_000)
    expect(clock.now()).toBe(1_700_000_011_000)
  })

  it('a hold-forever meets the sender\'s 10 s clock timeout: the clock jumps 10 s, the hold ends with the connection', async () => {
    const { attempt, release } = await holdingAttempt('timeout-once')
    const socket = net.connect(h.receiver.port, '127.0.0.1')
    socket.on('error', () => undefined)
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.write(post('/h/v', '{}', { 'x-hookloop-attempt': linkFor(h.db, attempt, '{}') }))
    await h.waitFor('request.captured')
    // The sender's own timeout, on the same clock.
    clock.setTimer(10_000, () => socket.destroy())
    await h.waitFor('request.responded')
    release()
    await closed
    const [record] = h.receiver.requests.list()
    expect(record?.fault?.outcome).toBe('timed_out')
    expect(record?.response.ms).toBe(10_000)
  })
})
