import { asObject, json, parsed, unixS } from './envelope'
import { definePack } from './types'

const TEAM = 'T0HOOKLOOP'

export const slack = definePack({
  id: 'slack',
  label: 'Slack (Events API)',
  envelope: {
    kind: 'slack',
    payloadPath: 'event',
    words: 'an Events API event_callback around the event',
    body: (e, derive) =>
      json({
        token: 'hookloopVerificationToken',
        team_id: TEAM,
        api_app_id: 'A0HOOKLOOP',
        event: { type: e.eventType, ...asObject(parsed(e.payload)) },
        type: 'event_callback',
        event_id: `Ev${derive.token(e.eventId, 'slack', 9, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`,
        event_time: unixS(e.createdAt),
        authorizations: [{ enterprise_id: null, team_id: TEAM, user_id: 'U0HOOKBOT', is_bot: true, is_enterprise_install: false }],
        is_ext_shared_channel: false,
        event_context: `4-${derive.token(e.eventId, 'slack-context', 40)}`,
      }),
  },
  headers: { 'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)' },
  retryHeaders: { 'x-slack-retry-num': '{retry_num}', 'x-slack-retry-reason': 'http_error' },
  success: 'any 2xx within 3 s; otherwise retried 3 times (at once, after 1 min, after 5 min)',
  sources: [
    ['Slack API — The Events API (callback type, retries)', 'https://api.slack.com/apis/events-api', 'Body: {token, team_id, api_app_id, event: {type, …}, type: "event_callback", event_id: "Ev…", event_time, authorizations, event_context}; answer 2xx within 3 s; up to 3 retries with X-Slack-Retry-Num and X-Slack-Retry-Reason. The first request to a new Request URL is a url_verification challenge.'],
    ['Slack API — Verifying requests from Slack', 'https://api.slack.com/authentication/verifying-requests-from-slack', 'X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body"> with the signing secret; X-Slack-Request-Timestamp within 5 minutes.'],
  ],
})
