import { App, LogLevel } from '@slack/bolt'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { CORRUPT, providerSender, STALE, WRONG_SECRET } from './harness'

// A real Bolt app (its default HTTPReceiver on 127.0.0.1, /slack/events), as Slack's Bolt docs
// start one: signingSecret + authorize, app.event(type) listeners. The receiver verifies
// X-Slack-Signature and X-Slack-Request-Timestamp (5 min) before any listener runs and answers
// 401 when they fail.

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5'

describe('Slack: a Bolt app accepts Hookloop deliveries', () => {
  let app: App
  let url = ''
  const seen: string[] = []
  const sender = providerSender('slack')
  beforeAll(async () => {
    // authorize instead of a token: a token makes Bolt call auth.test on slack.com for the bot's ids.
    app = new App({ signingSecret: SECRET, authorize: async () => ({ botToken: 'xoxb-hookloop-test', botId: 'B0HOOKBOT', botUserId: 'U0HOOKBOT' }), logLevel: LogLevel.ERROR })
    for (const event of EVENT_CATALOG.slack) {
      app.event(event.type, async ({ event: received }) => {
        seen.push(received.type)
      })
    }
    const server = (await app.start(0)) as unknown as { address(): AddressInfo }
    url = `http://127.0.0.1:${server.address().port}/slack/events`
  })
  afterAll(async () => {
    await sender.close()
    await app.stop()
  })

  for (const event of EVENT_CATALOG.slack) {
    it(`${event.type}: verified, acked, and the listener ran`, async () => {
      const attempt = await sender.deliver(url, { secret: SECRET, eventType: event.type })
      expect(attempt.outcome).toBe('http_200')
      expect(seen[seen.length - 1]).toBe(event.type)
    })
  }

  it('refuses a wrong secret, a corrupted signature and a stale timestamp', async () => {
    const before = seen.length
    for (const faults of [WRONG_SECRET, CORRUPT, STALE]) {
      const attempt = await sender.deliver(url, { secret: SECRET, eventType: 'app_mention', faults })
      expect(attempt.outcome, JSON.stringify(faults)).toBe('http_401')
    }
    expect(seen.length).toBe(before)
  })
})
