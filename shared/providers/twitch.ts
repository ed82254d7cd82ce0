import { definePack } from './types'

// Twitch EventSub over the webhook transport: the body is {subscription, event} (a revocation has
// no event); the message id header is the event id, the message type says which kind of message.
export const twitch = definePack({
  id: 'twitch',
  label: 'Twitch EventSub',
  eventIdHeader: 'twitch-eventsub-message-id',
  headers: {
    'user-agent': 'Twitch-Eventsub-Webhooks/1.0',
    'twitch-eventsub-message-type': 'notification',
    'twitch-eventsub-message-retry': '{retry_num}',
    'twitch-eventsub-subscription-type': '{event_type}',
    'twitch-eventsub-subscription-version': '1',
  },
  eventHeaders: {
    revocation: { 'twitch-eventsub-message-type': 'revocation', 'twitch-eventsub-subscription-type': 'channel.follow', 'twitch-eventsub-subscription-version': '2' },
    'channel.follow': { 'twitch-eventsub-subscription-version': '2' },
  },
  success: 'a 2xx within a few seconds; failing too often revokes the subscription (notification_failures_exceeded)',
  sources: [
    ['Twitch Developers — Handling webhook events', 'https://dev.twitch.tv/docs/eventsub/handling-webhook-events/', 'Message types (Twitch-Eventsub-Message-Type): notification, webhook_callback_verification (answer the challenge as text/plain 200) and revocation. Twitch-Eventsub-Message-Signature is "sha256=" + hex HMAC-SHA256 (the subscription\u2019s secret) of Message-Id + Message-Timestamp + raw body; reject messages older than 10 minutes and duplicate message ids. Timestamps are RFC 3339 with nanoseconds. Answer notifications with a 2xx within a few seconds.'],
    ['Twitch Developers — EventSub subscription types', 'https://dev.twitch.tv/docs/eventsub/eventsub-subscription-types/', 'Each subscription type\u2019s version and condition, and its event fields (channel.follow v2, stream.online, stream.offline, channel.subscribe, channel.cheer …).'],
  ],
})
