import type { ProviderPack } from './types'

export const zoom: ProviderPack = {
  id: 'zoom',
  label: 'Zoom',
  scheme: 'zoom',
  policy: 'zoom',
  contentType: 'application/json; charset=utf-8',
  envelope: { kind: 'zoom', account_id: 'hookloopAcct0001' },
  headers: [
    { name: 'user-agent', value: 'Zoom Marketplace/1.0a' },
    { name: 'clientid', value: 'hookloopClient01' },
  ],
  eventIdHeader: 'x-hookloop-event-id',
  success: 'HTTP 200 or 204 within 3 s; otherwise retried after 5, 30 and 90 min',
  sources: [
    {
      title: 'Zoom Developer — Using webhooks',
      url: 'https://developers.zoom.us/docs/api/webhooks/',
      note: 'Body: {event, event_ts (Unix ms), payload: {account_id, object}}. x-zm-signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body"> with the secret token, x-zm-request-timestamp; answer 200/204 within 3 s, else 3 retries (5, 30, 90 min). New endpoints get an endpoint.url_validation challenge first.',
    },
  ],
}
