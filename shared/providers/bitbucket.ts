import { definePack } from './types'

export const bitbucket = definePack({
  id: 'bitbucket',
  label: 'Bitbucket Cloud',
  eventIdHeader: 'x-request-uuid',
  headers: { 'user-agent': 'Bitbucket-Webhooks/2.0', 'x-event-key': '{event_type}', 'x-hook-uuid': '7d2b1c4e-5a8f-4b3d-9e61-0f4a2c8b6d17', 'x-attempt-number': '{attempt}' },
  success: 'any 2xx within 10 s; a 5xx is resent up to twice, anything else is final',
  sources: [
    ['Bitbucket Cloud — Event payloads: HTTP headers', 'https://support.atlassian.com/bitbucket-cloud/docs/event-payloads/#HTTP-headers', 'X-Event-Key names the event (repo:push, pullrequest:created …), X-Hook-UUID the webhook, X-Request-UUID the request, X-Attempt-Number the attempt, User-Agent is Bitbucket-Webhooks/2.0; the body is the event payload (actor, repository and the event\'s own objects), application/json.'],
    ['Bitbucket Cloud — Manage webhooks: secure webhooks', 'https://support.atlassian.com/bitbucket-cloud/docs/manage-webhooks/#Secure-webhooks', 'With a secret set, X-Hub-Signature is "sha256=" + the hex HMAC-SHA256 of the raw body keyed with the secret; no timestamp is signed.'],
    ['Bitbucket Cloud — Troubleshoot webhooks', 'https://support.atlassian.com/bitbucket-cloud/docs/troubleshoot-webhooks/', 'A 5xx answer is resent up to two more times; no answer within 10 s is a timeout; payloads are capped at 256 KB. The interval between resends is not given (older docs: one minute).'],
  ],
})
