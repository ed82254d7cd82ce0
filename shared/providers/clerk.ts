import { definePack } from './types'

export const clerk = definePack({
  id: 'clerk',
  label: 'Clerk',
  // Clerk delivers through Svix: Svix's signature and Svix's retry schedule.
  scheme: 'svix',
  policy: 'svix',
  envelope: { kind: 'clerk', instanceId: 'ins_2hookloopInstance0000000001' },
  eventIdHeader: 'svix-id',
  headers: { 'user-agent': 'Svix-Webhooks/1.63.1 (sender-clerk; +https://www.svix.com/http-sender/)' },
  success: 'any 2xx within 15 s (Svix\'s rule); anything else is retried on Svix\'s schedule',
  sources: [
    ['Clerk Docs — Webhooks overview', 'https://clerk.com/docs/webhooks/overview', 'Clerk sends webhooks through Svix: svix-id, svix-timestamp and svix-signature headers; the body is {data, object: "event", type, timestamp (ms), instance_id, event_attributes: {http_request: {client_ip, user_agent}}}; a failed delivery is retried on Svix\'s schedule.'],
    ['Clerk Docs — verifyWebhook()', 'https://clerk.com/docs/references/backend/verify-webhook', 'verifyWebhook(request, {signingSecret}) from @clerk/backend/webhooks checks the Svix headers with the whsec_ signing secret and returns the event.'],
    ['@clerk/backend — api/resources/Webhooks and JSON types', 'https://github.com/clerk/javascript/tree/main/packages/backend/src/api/resources', 'UserJSON, UserDeletedJSON, SessionWebhookEventJSON and OrganizationJSON: the data of user.*, session.* and organization.* events; the catalog follows them.'],
  ],
})
