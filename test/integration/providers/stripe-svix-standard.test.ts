import Stripe from 'stripe'
import { Webhook as StandardWebhook } from 'standardwebhooks'
import { Webhook as SvixWebhook } from 'svix'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import type { ProviderId } from '../../../shared/providers'
import { closeAll, CORRUPT, providerSender, serveCheck, STALE, WRONG_SECRET, type Consumer } from './harness'

// Stripe's constructEvent, Svix's and Standard Webhooks' Webhook.verify, each in a handler as
// their docs show it: the raw body and the signature headers in, the parsed event out, 400 on
// any verification error. Each also refuses a wrong secret, a corrupted signature and a
// timestamp 10 minutes old.

interface Judge {
  provider: ProviderId
  secret: string
  /** Verifies as the library's docs say; returns the event's type, throws when refused. */
  check(body: Buffer, headers: Record<string, string | string[] | undefined>): string
}

const stripe = new Stripe('sk_test_hookloop')
const JUDGES: Judge[] = [
  {
    provider: 'stripe',
    secret: 'whsec_hookloopStripeTestSecret',
    check: (body, headers) => stripe.webhooks.constructEvent(body, String(headers['stripe-signature']), 'whsec_hookloopStripeTestSecret').type,
  },
  {
    provider: 'svix',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    check: (body, headers) => (new SvixWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(body.toString('utf8'), headers as Record<string, string>) as { type: string }).type,
  },
  {
    provider: 'standard-webhooks',
    secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
    check: (body, headers) => (new StandardWebhook('whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD').verify(body.toString('utf8'), headers as Record<string, string>) as { type: string }).type,
  },
]

for (const judge of JUDGES) {
  describe(`${judge.provider}: the official library accepts Hookloop deliveries`, () => {
    let consumer: Consumer
    const types: string[] = []
    const sender = providerSender(judge.provider)
    beforeAll(async () => {
      consumer = await serveCheck((body, req) => types.push(judge.check(body, req.headers)))
    })
    afterAll(() => closeAll(sender, consumer))

    for (const event of EVENT_CATALOG[judge.provider]) {
      it(`${event.type}: verified and parsed`, async () => {
        const attempt = await sender.deliver(consumer.url, { secret: judge.secret, eventType: event.type })
        expect(attempt.outcome).toBe('http_200')
        expect(types[types.length - 1]).toBe(event.type)
      })
    }

    it('refuses a wrong secret, a corrupted signature and a stale timestamp', async () => {
      const type = EVENT_CATALOG[judge.provider][0]!.type
      for (const faults of [WRONG_SECRET, CORRUPT, STALE]) {
        const attempt = await sender.deliver(consumer.url, { secret: judge.secret, eventType: type, faults })
        expect(attempt.outcome, JSON.stringify(faults)).toBe('http_400')
      }
    })
  })
}
