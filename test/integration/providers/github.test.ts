import { createNodeMiddleware, Webhooks } from '@octokit/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { closeAll, CORRUPT, providerSender, serve, WRONG_SECRET, type Consumer } from './harness'

// GitHub's official library as its docs use it: a Webhooks instance with handlers per event,
// behind createNodeMiddleware (which checks X-GitHub-Event, X-GitHub-Delivery, the content type
// and X-Hub-Signature-256, then answers 200 once the handlers ran). GitHub signs no timestamp, so
// there is no stale-timestamp case: a replayed GitHub delivery verifies (dedupe on X-GitHub-Delivery).

const SECRET = 'It\u2019s a Secret to Everybody'

describe('GitHub: @octokit/webhooks accepts Hookloop deliveries', () => {
  let consumer: Consumer
  const received: Array<{ name: string; id: string; action?: string }> = []
  const sender = providerSender('github')
  beforeAll(async () => {
    const webhooks = new Webhooks({ secret: SECRET })
    webhooks.onAny(({ id, name, payload }) => {
      received.push({ id, name, action: 'action' in payload ? String(payload.action) : undefined })
    })
    consumer = await serve(createNodeMiddleware(webhooks, { path: '/api/github/webhooks' }), '/api/github/webhooks')
  })
  afterAll(() => closeAll(sender, consumer))

  for (const event of EVENT_CATALOG.github) {
    it(`${event.type}: 200 and the handler gets it`, async () => {
      const attempt = await sender.deliver(consumer.url, { secret: SECRET, eventType: event.type })
      expect(attempt.outcome).toBe('http_200')
      const last = received[received.length - 1]
      expect(`${last?.name}${last?.action ? `.${last.action}` : ''}`).toBe(event.type)
      expect(last?.id).toBe(attempt.eventId) // X-GitHub-Delivery carries the event id
    })
  }

  it('a wrong secret and a corrupted signature are refused', async () => {
    const before = received.length
    for (const faults of [WRONG_SECRET, CORRUPT]) {
      const attempt = await sender.deliver(consumer.url, { secret: SECRET, eventType: 'push', faults })
      expect(attempt.outcome).toBe('http_400')
    }
    expect(received.length).toBe(before)
  })
})
