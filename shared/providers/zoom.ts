import { asObject, json, parsed } from './envelope'
import { definePack } from './types'

export const zoom = definePack({
  id: 'zoom',
  label: 'Zoom',
  contentType: 'application/json; charset=utf-8',
  envelope: {
    kind: 'zoom',
    payloadPath: 'payload',
    words: "Zoom's {event, event_ts, payload}",
    body: (e) => {
      // A recording event's download_token sits beside payload, not in it (Zoom's
      // RecordingCompletedEvent); the catalog writes it in the payload, the body moves it out.
      const { download_token: downloadToken, ...payload } = asObject(parsed(e.payload))
      return json({ event: e.eventType, event_ts: e.createdAt, ...(downloadToken === undefined ? {} : { download_token: downloadToken }), payload: { account_id: 'hookloopAcct0001', ...payload } })
    },
  },
  headers: { 'user-agent': 'Zoom Marketplace/1.0a', clientid: 'hookloopClient01' },
  success: 'HTTP 200 or 204 within 3 s; otherwise retried after 5, 30 and 90 min',
  sources: [['Zoom Developer — Using webhooks', 'https://developers.zoom.us/docs/api/webhooks/', 'Body: {event, event_ts (Unix ms), payload: {account_id, object}}. x-zm-signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body"> with the secret token, x-zm-request-timestamp; answer 200/204 within 3 s, else 3 retries (5, 30, 90 min). New endpoints get an endpoint.url_validation challenge first.']],
})
