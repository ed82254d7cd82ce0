import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { PROVIDERS, type ProviderId } from '../../../shared/providers'
import type { SendFaultInput } from '../../../shared/sender-faults'
import { CORRUPT, closeAll, providerSender, STALE, WRONG_SECRET } from './harness'
import { JUDGES, type JudgeConsumer } from './judges'

// A provider's judge against Hookloop's deliveries: every catalog event, sent by the real sender
// under the pack, is accepted by the provider's official library (or documented check), and a
// wrong secret, a corrupted signature and — where the judge checks the time — a stale timestamp
// are refused.

export interface JudgedOptions {
  /** The status the judge refuses with (discord-interactions' consumers answer 401). */
  refusal?: number
  /** Whether the judge refuses a stale timestamp (false: the library checks no time; the reason is said where this is called). */
  checksTime: boolean
}

export function judgedDeliveries(provider: ProviderId, options: JudgedOptions): void {
  const judge = JUDGES[provider]
  if (!judge) throw new Error(`no judge for ${provider}: add one to judges/index.ts`)
  const refusal = `http_${options.refusal ?? 400}`

  describe(`${PROVIDERS[provider].label}: ${judge.library} accepts Hookloop deliveries`, () => {
    let consumer: JudgeConsumer
    const sender = providerSender(provider)
    beforeAll(async () => {
      consumer = await judge.start()
    })
    afterAll(() => closeAll(sender, consumer))

    for (const event of EVENT_CATALOG[provider]) {
      it(`${event.type}: accepted`, async () => {
        const attempt = await sender.deliver(consumer.url, { secret: judge.secret, eventType: event.type })
        expect(attempt.outcome, attempt.error ?? '').toMatch(/^http_2\d\d$/)
        expect(consumer.accepted[consumer.accepted.length - 1]).toBe(event.type)
      })
    }

    const refused: Array<[string, SendFaultInput[]]> = [
      ['a wrong secret', WRONG_SECRET],
      ['a corrupted signature', CORRUPT],
      ...(options.checksTime ? [['a stale timestamp', STALE] as [string, SendFaultInput[]]] : []),
    ]
    for (const [what, faults] of refused) {
      it(`refuses ${what}`, async () => {
        const before = consumer.accepted.length
        const attempt = await sender.deliver(consumer.url, { secret: judge.secret, eventType: EVENT_CATALOG[provider][0]!.type, faults })
        expect(attempt.outcome).toBe(refusal)
        expect(consumer.accepted.length).toBe(before)
      })
    }
  })
}
