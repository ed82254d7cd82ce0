import { json, parsed } from './envelope'
import { throughSvix } from './svix'
import { definePack } from './types'

// The browser of the request that caused the event, as Clerk's event_attributes name it.
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

export const clerk = definePack({
  id: 'clerk',
  label: 'Clerk',
  ...throughSvix('clerk'),
  envelope: {
    kind: 'clerk',
    payloadPath: 'data',
    words: "Clerk's {data, object: event, type, timestamp, instance_id, event_attributes}",
    body: (e) => json({ data: parsed(e.payload), event_attributes: { http_request: { client_ip: '203.0.113.24', user_agent: BROWSER } }, instance_id: 'ins_2hookloopInstance0000000001', object: 'event', timestamp: e.createdAt, type: e.eventType }),
  },
  success: 'any 2xx within 15 s (Svix\'s rule); anything else is retried on Svix\'s schedule',
  sources: [
    ['Clerk Docs — Webhooks overview', 'https://clerk.com/docs/webhooks/overview', 'Clerk sends webhooks through Svix: svix-id, svix-timestamp and svix-signature headers; the body is {data, object: "event", type, timestamp (ms), instance_id, event_attributes: {http_request: {client_ip, user_agent}}}; a failed delivery is retried on Svix\'s schedule.'],
    ['Clerk Docs — verifyWebhook()', 'https://clerk.com/docs/references/backend/verify-webhook', 'verifyWebhook(request, {signingSecret}) from @clerk/backend/webhooks checks the Svix headers with the whsec_ signing secret and returns the event.'],
    ['@clerk/backend — api/resources/Webhooks and JSON types', 'https://github.com/clerk/javascript/tree/main/packages/backend/src/api/resources', 'UserJSON, UserDeletedJSON, SessionWebhookEventJSON and OrganizationJSON: the data of user.*, session.* and organization.* events; the catalog follows them.'],
  ],
})
