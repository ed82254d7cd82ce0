import { App, LogLevel } from '@slack/bolt'
import type { AddressInfo } from 'node:net'
import { EVENT_CATALOG } from '../../../../shared/event-catalog'
import type { Judge } from './types'

// A real Bolt app (its default HTTPReceiver on 127.0.0.1, /slack/events), as Slack's Bolt docs
// start one: signingSecret + authorize, app.event(type) listeners. The receiver verifies
// X-Slack-Signature and X-Slack-Request-Timestamp (5 min) before any listener runs and answers
// 401 when they fail.
const SECRET = '8f742231b10e8888abcd99yyyzzz85a5'

export const slackJudge: Judge = {
  provider: 'slack', library: '@slack/bolt 5', secret: SECRET, signsTime: true,
  async start() {
    const accepted: string[] = []
    // authorize instead of a token: a token makes Bolt call auth.test on slack.com for the bot's ids.
    const app = new App({ signingSecret: SECRET, authorize: async () => ({ botToken: 'xoxb-hookloop-test', botId: 'B0HOOKBOT', botUserId: 'U0HOOKBOT' }), logLevel: LogLevel.ERROR })
    for (const type of new Set(EVENT_CATALOG.slack.map((e) => e.type))) {
      app.event(type, async ({ event }) => {
        accepted.push(event.type)
      })
    }
    const server = (await app.start(0)) as unknown as { address(): AddressInfo }
    return { url: `http://127.0.0.1:${server.address().port}/slack/events`, accepted, close: () => app.stop() as Promise<void> }
  },
}
