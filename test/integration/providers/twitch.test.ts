import { describe, expect, it } from 'vitest'
import { providerHeaders } from '../../../electron/engine/providers'
import { PROVIDERS } from '../../../shared/providers'

// Twitch's message types. Every catalog event against Twitch's documented check is in
// official-libraries.test.ts (judges/twitch.ts); the challenge in handshakes-discord-twitch.test.ts.

describe('Twitch message types', () => {
  it('notifications say notification and their subscription type; a revocation says revocation', () => {
    const ctx = { eventId: 'e1', eventType: 'stream.online', attempt: 1, createdAt: 0, sentAt: 0 }
    expect(providerHeaders(PROVIDERS.twitch, ctx)).toMatchObject({ 'twitch-eventsub-message-type': 'notification', 'twitch-eventsub-subscription-type': 'stream.online', 'twitch-eventsub-message-retry': '0' })
    expect(providerHeaders(PROVIDERS.twitch, { ...ctx, eventType: 'revocation', attempt: 2 })).toMatchObject({ 'twitch-eventsub-message-type': 'revocation', 'twitch-eventsub-subscription-type': 'channel.follow', 'twitch-eventsub-message-retry': '1' })
  })
})
