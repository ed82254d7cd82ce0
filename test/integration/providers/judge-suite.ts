import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { PROVIDERS, type ProviderId } from '../../../shared/providers'
import { SCHEMES } from '../../../shared/signatures'
import { closeAll, CORRUPT, providerSender, STALE, WRONG_SECRET } from './harness'
import { JUDGES, type JudgeConsumer } from './judges'

// One provider's deliveries before its judge (judges/): every catalog event, sent by the real
// sender as the pack makes it, is accepted and parsed as its own type; a wrong secret, a corrupted
// signature and — where the scheme signs a time — a timestamp 10 minutes old are refused.

export function judgeSuite(provider: ProviderId): void {
  const judge = JUDGES[provider]
  if (!judge) throw new Error(`no judge for ${provider} in judges/index.ts`)
  const pack = PROVIDERS[provider]
  const signsTime = SCHEMES[pack.scheme].toleranceSeconds !== null
  const events = EVENT_CATALOG[provider]

  describe(`${pack.label}: ${judge.library} accepts Hookloop's deliveries`, () => {
    let consumer: JudgeConsumer
    const sender = providerSender(provider)
    beforeAll(async () => {
      consumer = await judge.start()
    })
    afterAll(() => closeAll(sender, consumer))

    for (const event of events) {
      it(`${event.type}: accepted and parsed as ${event.type}`, async () => {
        const attempt = await sender.deliver(consumer.url, { secret: judge.secret, eventType: event.type })
        expect(attempt.outcome).toBe('http_200')
        expect(consumer.accepted[consumer.accepted.length - 1]).toBe(event.type)
      })
    }

    const refusals = [['a wrong secret', WRONG_SECRET], ['a corrupted signature', CORRUPT], ...(signsTime ? [['a timestamp 10 minutes old', STALE] as const] : [])] as const
    for (const [what, faults] of refusals) {
      it(`refuses ${what}`, async () => {
        const before = consumer.accepted.length
        const attempt = await sender.deliver(consumer.url, { secret: judge.secret, eventType: events[0]!.type, faults })
        expect(attempt.outcome).toMatch(/^http_4\d\d$/)
        expect(consumer.accepted.length).toBe(before)
      })
    }
  })
}
