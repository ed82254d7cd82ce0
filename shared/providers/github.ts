import { definePack } from './types'

export const github = definePack({
  id: 'github',
  label: 'GitHub',
  eventIdHeader: 'x-github-delivery',
  headers: { 'user-agent': 'GitHub-Hookshot/7c4e9a1', 'x-github-event': '{event_name}', 'x-github-hook-id': '482913577', 'x-github-hook-installation-target-id': '700000001', 'x-github-hook-installation-target-type': 'repository' },
  success: 'any 2xx within 10 s; nothing is retried automatically (redeliveries are made by hand and get a new X-GitHub-Delivery)',
  sources: [
    ['GitHub Docs — Webhook events and payloads: delivery headers', 'https://docs.github.com/en/webhooks/webhook-events-and-payloads#delivery-headers', 'X-GitHub-Event names the event (the action is in the body), X-GitHub-Delivery is a GUID per delivery, X-GitHub-Hook-ID and the installation target headers name the hook, User-Agent starts with GitHub-Hookshot/, X-Hub-Signature-256 (and the legacy SHA-1 X-Hub-Signature) sign the body. The body is the event payload itself, sent as application/json.'],
    ['GitHub Docs — Handling failed webhook deliveries', 'https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries', 'GitHub does not redeliver failed deliveries automatically; a response is expected within 10 s.'],
  ],
})
