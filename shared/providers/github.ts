import type { ProviderPack } from './types'

export const github: ProviderPack = {
  id: 'github',
  label: 'GitHub',
  scheme: 'github',
  policy: 'github',
  contentType: 'application/json',
  envelope: { kind: 'payload' },
  headers: [
    { name: 'user-agent', value: 'GitHub-Hookshot/7c4e9a1' },
    { name: 'x-github-event', value: '{event_name}' },
    { name: 'x-github-hook-id', value: '482913577' },
    { name: 'x-github-hook-installation-target-id', value: '700000001' },
    { name: 'x-github-hook-installation-target-type', value: 'repository' },
  ],
  eventIdHeader: 'x-github-delivery',
  success: 'any 2xx within 10 s; nothing is retried automatically (redeliveries are made by hand and get a new X-GitHub-Delivery)',
  sources: [
    {
      title: 'GitHub Docs — Webhook events and payloads: delivery headers',
      url: 'https://docs.github.com/en/webhooks/webhook-events-and-payloads#delivery-headers',
      note: 'X-GitHub-Event names the event (the action is in the body), X-GitHub-Delivery is a GUID per delivery, X-GitHub-Hook-ID and the installation target headers name the hook, User-Agent starts with GitHub-Hookshot/, X-Hub-Signature-256 (and the legacy SHA-1 X-Hub-Signature) sign the body. The body is the event payload itself, sent as application/json.',
    },
    {
      title: 'GitHub Docs — Handling failed webhook deliveries',
      url: 'https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries',
      note: 'GitHub does not redeliver failed deliveries automatically; a response is expected within 10 s.',
    },
  ],
}
