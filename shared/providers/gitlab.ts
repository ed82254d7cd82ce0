import { definePack } from './types'

export const gitlab = definePack({
  id: 'gitlab', label: 'GitLab', eventIdHeader: 'idempotency-key',
  headers: { 'user-agent': 'GitLab/18.6.0-ee', 'x-gitlab-event': '{event_title} Hook', 'x-gitlab-instance': 'https://gitlab.com', 'x-gitlab-webhook-uuid': '3f0c6b2e-9d41-4a57-8e1a-5c2b7d90e4f6', 'x-gitlab-event-uuid': '{derived_uuid}' },
  success: 'any 2xx within the hook\'s timeout (10 s by default); a failed delivery is not retried, and a hook that keeps failing is disabled for a while (see the gitlab policy)',
  sources: [
    ['GitLab Docs — Webhooks: delivery headers', 'https://docs.gitlab.com/user/project/integrations/webhooks/#delivery-headers', 'X-Gitlab-Event names the hook ("Push Hook", "Merge Request Hook", "Note Hook" …: the object_kind in words), X-Gitlab-Token is the secret token as typed, X-Gitlab-Instance the instance URL, X-Gitlab-Webhook-UUID identifies the webhook, X-Gitlab-Event-UUID the event, Idempotency-Key stays the same across retries, User-Agent is GitLab/<version>. The body is the event payload, application/json.'],
    ['GitLab Docs — Webhooks: validate requests with a secret token', 'https://docs.gitlab.com/user/project/integrations/webhooks/#validate-requests-with-a-secret-token', 'GitLab sends the secret token in X-Gitlab-Token; it is not an HMAC, the receiver compares it with the token it configured.'],
    ['GitLab Docs — Webhooks: auto-disabled webhooks', 'https://docs.gitlab.com/user/project/integrations/webhooks/#auto-disabled-webhooks', 'A hook that fails 4 consecutive times is disabled temporarily (1 min, extended on each further failure up to 24 h) and permanently after 40; a failure is a 4xx/5xx, a timeout or a connection error. A delivery is answered within the timeout (10 s by default) or counts as failed.'],
    ['GitLab Docs — Webhook events', 'https://docs.gitlab.com/user/project/integrations/webhook_events/', 'The payloads of push, tag push, issue, comment (note), merge request and pipeline events; the catalog follows their examples.'],
  ],
})
