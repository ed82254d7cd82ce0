import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import type { ProviderId } from '../../../shared/providers'
import { CORRUPT, providerSender, STALE, WRONG_SECRET } from './support'
import { JUDGES, type Judge, type JudgeConsumer } from './judges'

// Every catalog event of every pack, delivered by the real sender (its pack, a fresh catalog
// payload, the virtual clock), is accepted by the provider's official library run as its docs
// show (judges/), and a wrong secret, a corrupted signature and — where the scheme signs a time
// — a delivery signed 10 minutes ago are refused.

for (const [provider, judge] of Object.entries(JUDGES) as Array<[ProviderId, Judge]>) {
  describe(`${provider}: ${judge.library} accepts Hookloop deliveries`, () => {
    let consumer: JudgeConsumer
    const sender = providerSender(provider)
    beforeAll(async () => {
      consumer = await judge.start()
    })
    afterAll(async () => {
      await sender.close()
      await consumer.close()
    })

    for (const event of EVENT_CATALOG[provider]) {
      it(`${event.type}: accepted and parsed`, async () => {
        const before = consumer.accepted.length
        const attempt = await sender.deliver(consumer.url, { secret: judge.secret, eventType: event.type })
        expect(attempt.outcome, attempt.error ?? '').toMatch(/^http_2\d\d$/)
        expect(consumer.accepted.length).toBe(before + 1)
        if (!judge.namesNoType) expect(consumer.accepted.at(-1)).toBe(event.type)
        if (consumer.deliveryIds) expect(consumer.deliveryIds.at(-1)).toBe(attempt.eventId)
      })
    }

    const refusals = judge.signsTime ? { 'a wrong secret': WRONG_SECRET, 'a corrupted signature': CORRUPT, 'a stale timestamp': STALE } : { 'a wrong secret': WRONG_SECRET, 'a corrupted signature': CORRUPT }
    it(`refuses ${Object.keys(refusals).join(', ')}`, async () => {
      const before = consumer.accepted.length
      const type = EVENT_CATALOG[provider][0]!.type
      for (const [what, faults] of Object.entries(refusals)) {
        const attempt = await sender.deliver(consumer.url, { secret: judge.secret, eventType: type, faults })
        expect(attempt.outcome, what).toMatch(/^http_4\d\d$/)
      }
      expect(consumer.accepted.length).toBe(before)
    })
  })
}
