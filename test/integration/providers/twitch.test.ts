import { describe, expect, it } from 'vitest'
import { providerHeaders } from '../../../electron/engine/providers'
import { PROVIDERS } from '../../../shared/providers'
import { judgedDeliveries } from './judged'

// Twitch EventSub judged by the check Twitch's docs give (judges/twitch.ts says why not
// @twurple/eventsub-http): message id + RFC 3339 timestamp + body, and the 10-minute limit.
judgedDeliveries('twitch', { checksTime: true })

describe('Twitch message types', () => {
  it('notifications say notification and their subscription type; a revocation says revocation', () => {
    const ctx = { eventId: 'e1', eventType: 'stream.online', attempt: 1, createdAt: 0, sentAt: 0 }
    expect(providerHeaders(PROVIDERS.twitch, ctx)).toMatchObject({ 'twitch-eventsub-message-type': 'notification', 'twitch-eventsub-subscription-type': 'stream.online', 'twitch-eventsub-message-retry': '0' })
    expect(providerHeaders(PROVIDERS.twitch, { ...ctx, eventType: 'revocation', attempt: 2 })).toMatchObject({ 'twitch-eventsub-message-type': 'revocation', 'twitch-eventsub-subscription-type': 'channel.follow', 'twitch-eventsub-message-retry': '1' })
  })
})
