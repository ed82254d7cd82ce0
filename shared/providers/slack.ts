import type { ProviderPack } from './types'

export const slack: ProviderPack = {
  id: 'slack',
  label: 'Slack (Events API)',
  scheme: 'slack',
  policy: 'slack',
  contentType: 'application/json',
  envelope: { kind: 'slack', team_id: 'T0HOOKLOOP', api_app_id: 'A0HOOKLOOP' },
  headers: [
    { name: 'user-agent', value: 'Slackbot 1.0 (+https://api.slack.com/robots)' },
    { name: 'x-slack-retry-num', value: '{retry_num}', on: 'retries' },
    { name: 'x-slack-retry-reason', value: 'http_error', on: 'retries' },
  ],
  eventIdHeader: 'x-hookloop-event-id',
  success: 'any 2xx within 3 s; otherwise retried 3 times (at once, after 1 min, after 5 min)',
  sources: [
    {
      title: 'Slack API — The Events API (callback type, retries)',
      url: 'https://api.slack.com/apis/events-api',
      note: 'Body: {token, team_id, api_app_id, event: {type, …}, type: "event_callback", event_id: "Ev…", event_time, authorizations, event_context}; answer 2xx within 3 s; up to 3 retries with X-Slack-Retry-Num and X-Slack-Retry-Reason. The first request to a new Request URL is a url_verification challenge.',
    },
    {
      title: 'Slack API — Verifying requests from Slack',
      url: 'https://api.slack.com/authentication/verifying-requests-from-slack',
      note: 'X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body"> with the signing secret; X-Slack-Request-Timestamp within 5 minutes.',
    },
  ],
}
