// A Slack app set up as Bolt's docs set one up on an ExpressReceiver: Bolt itself answers
// url_verification, after verifying the request's signature with the signing secret.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { App, ExpressReceiver, LogLevel } from '@slack/bolt'

export interface BoltApp {
  /** The app's events endpoint on 127.0.0.1. */
  url: string
  close(): Promise<void>
}

export async function startBoltApp(signingSecret: string): Promise<BoltApp> {
  const receiver = new ExpressReceiver({ signingSecret, logLevel: LogLevel.ERROR })
  const app = new App({ receiver, authorize: async () => ({ botToken: 'xoxb-x', botId: 'B1', botUserId: 'U1' }), logLevel: LogLevel.ERROR })
  app.event('app_mention', async () => {})
  const server = await new Promise<Server>((resolve) => {
    const listening = receiver.app.listen(0, '127.0.0.1', () => resolve(listening))
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
