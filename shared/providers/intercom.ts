import { json, parsed, unixS } from './envelope'
import { definePack } from './types'

// Intercom webhooks: a notification envelope around the topic's item, signed with the app's
// client secret (HMAC-SHA1 of the body in X-Hub-Signature).
export const intercom = definePack({
  id: 'intercom',
  label: 'Intercom',
  // Its id and times come from the event, so a retry carries the same notification.
  envelope: {
    kind: 'intercom',
    payloadPath: 'data.item',
    words: "Intercom's notification {type: notification_event, topic, data: {item}}",
    body: (e, derive) =>
      json({
        type: 'notification_event',
        app_id: 'hkl0op5x',
        data: { type: 'notification_event_data', item: parsed(e.payload) },
        links: {},
        id: `notif_${derive.uuid(e.eventId, 'intercom-notification')}`,
        topic: e.eventType,
        delivery_status: 'pending',
        delivery_attempts: 1,
        delivered_at: 0,
        first_sent_at: unixS(e.createdAt),
        created_at: unixS(e.createdAt),
        self: null,
      }),
  },
  headers: { 'user-agent': 'intercom-parrot-service-client/1.0' },
  success: 'a 200 within 5 s; a failed notification is retried once, a minute later',
  sources: [
    ['Intercom Developers — Webhooks: setting up and signed notifications', 'https://developers.intercom.com/docs/webhooks/setting-up-webhooks', 'Notifications are signed with the app\u2019s client secret: X-Hub-Signature is "sha1=" + hex HMAC-SHA1 of the raw body. Answer 200 within 5 s; a failed notification is retried once after a minute.'],
    ['Intercom Developers — Webhook models (notification object)', 'https://developers.intercom.com/docs/references/webhooks/webhook-models', 'The notification: {type: "notification_event", app_id, data: {type: "notification_event_data", item}, links, id ("notif_…"), topic (conversation.user.created, contact.user.created …), delivery_status, delivery_attempts, delivered_at, first_sent_at, created_at, self}; item is the topic\u2019s object (a Conversation, Contact, Ticket …) as the REST API returns it.'],
  ],
})
