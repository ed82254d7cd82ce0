import type { CatalogEvent, FixtureContext } from './types'

// Twitch EventSub webhook messages: {subscription, event}, as "EventSub subscription types" and
// "EventSub reference" write each subscription type's condition and event fields. `revocation` is
// the message Twitch sends when it revokes a subscription (no event). Field types as
// @twurple/eventsub-base's (test/unit/providers/twitch-types.test.ts).

const BROADCASTER = { broadcaster_user_id: '1337', broadcaster_user_login: 'hookloop', broadcaster_user_name: 'Hookloop' }

function subscription(ctx: FixtureContext, type: string, version: string, condition: Record<string, string>, status = 'enabled') {
  return { id: ctx.uuid(), status, type, version, cost: 0, condition, transport: { method: 'webhook', callback: 'https://example.com/webhooks/twitch' }, created_at: ctx.iso(-3_600_000) }
}

const viewer = (ctx: FixtureContext) => {
  const id = ctx.digits(8)
  return { user_id: id, user_login: `viewer${id}`, user_name: `Viewer${id}` }
}

export const twitchEvents: CatalogEvent[] = [
  // Subscription types — channel.follow v2 (condition names a moderator too); twurple's EventSubChannelFollowEventData.
  { type: 'channel.follow', description: 'A user followed the channel.', payload: (ctx) => ({ subscription: subscription(ctx, 'channel.follow', '2', { broadcaster_user_id: '1337', moderator_user_id: '1337' }), event: { ...viewer(ctx), ...BROADCASTER, followed_at: ctx.iso() } }) },
  // Subscription types — stream.online v1 (type is live, playlist, watch_party, premiere or rerun);
  // twurple's EventSubStreamOnlineEventData.
  { type: 'stream.online', description: 'The broadcaster went live.', payload: (ctx) => ({ subscription: subscription(ctx, 'stream.online', '1', { broadcaster_user_id: '1337' }), event: { id: ctx.digits(10), ...BROADCASTER, type: 'live', started_at: ctx.iso() } }) },
  // Subscription types — stream.offline v1; twurple's EventSubStreamOfflineEventData.
  { type: 'stream.offline', description: 'The broadcaster went offline.', payload: (ctx) => ({ subscription: subscription(ctx, 'stream.offline', '1', { broadcaster_user_id: '1337' }), event: { ...BROADCASTER } }) },
  // Subscription types — channel.subscribe v1 (tier 1000/2000/3000); twurple's EventSubChannelSubscriptionEventData.
  { type: 'channel.subscribe', description: 'A user subscribed to the channel.', payload: (ctx) => ({ subscription: subscription(ctx, 'channel.subscribe', '1', { broadcaster_user_id: '1337' }), event: { ...viewer(ctx), ...BROADCASTER, tier: '1000', is_gift: false } }) },
  // Subscription types — channel.cheer v1 (an anonymous cheer has null user fields); twurple's
  // EventSubChannelCheerEventData.
  { type: 'channel.cheer', description: 'A user cheered bits in the channel.', payload: (ctx) => ({ subscription: subscription(ctx, 'channel.cheer', '1', { broadcaster_user_id: '1337' }), event: { is_anonymous: false, ...viewer(ctx), ...BROADCASTER, message: 'Cheer100 great stream', bits: 100 } }) },
  // Handling webhook events — "Revoking your subscription": the subscription with its reason as
  // status; twurple's EventSubRevocationPayload.
  { type: 'revocation', description: 'Twitch revoked a subscription (here: too many failed notifications).', payload: (ctx) => ({ subscription: subscription(ctx, 'channel.follow', '2', { broadcaster_user_id: '1337', moderator_user_id: '1337' }, 'notification_failures_exceeded') }) },
]
