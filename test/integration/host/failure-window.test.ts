// The 24 h badge moves with the wall clock: a failed delivery counts while it is less than a day
// old on the wall clock and leaves the badge after, while the card still counts it.
import { describe, expect, it } from 'vitest'
import type { SubscriptionView } from '../../../shared/contract'
import { createCountReadsOn } from '../../../electron/engine/store/counts'
import { createSqliteEngine } from '../../../electron/engine/store/sqlite-engine'
import { withFailureWindow, type EngineBinding } from '../../../electron/engine/host/views'
import { answer, senderWithServer } from '../sender/support'

const start = senderWithServer()
const HOUR = 3_600_000

describe('the 24 h failure window', () => {
  it('counts a failed delivery for a day of wall time, then lets it go', async () => {
    const { server, sender, rig } = await start({ start: Date.now() }, answer(410))
    await sender.createSubscription({ id: 'gone', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    await sender.publish({ eventType: 'invoice.failed', payload: {} })
    await sender.settled()
    const counts = createCountReadsOn(createSqliteEngine(rig.db, { closeDatabase: false }))
    const madeAt = Date.now()
    const at = (wallNow: number) => ({ counts, wallNow: () => wallNow }) as unknown as EngineBinding
    const view = { id: 'gone', metrics: { deliveries: 1, deliveries24h: 0, failed24h: 0, failureRate24h: 0 } } as unknown as SubscriptionView

    const fresh = await withFailureWindow(at(madeAt + 23 * HOUR), view)
    expect(fresh.metrics).toMatchObject({ deliveries: 1, deliveries24h: 1, failed24h: 1, failureRate24h: 1 })
    const dayLater = await withFailureWindow(at(madeAt + 25 * HOUR), fresh)
    expect(dayLater.metrics).toMatchObject({ deliveries: 1, deliveries24h: 0, failed24h: 0, failureRate24h: 0 })
    // Nothing moved: the same view back, so nothing is pushed to the UIs.
    expect(await withFailureWindow(at(madeAt + 26 * HOUR), dayLater)).toBe(dayLater)
  })
})
