import type { CatalogEvent } from './types'

// Slack Events API: the payload is the inner `event` of the event_callback (its `type` is the
// event type); shapes follow api.slack.com/events.

export const slackEvents: CatalogEvent[] = [
  { type: 'app_mention', description: 'The app was mentioned in a channel.', payload: (ctx) => ({ type: 'app_mention', user: 'U061F7AUR', text: '<@U0HOOKBOT> is the deploy done?', ts: `${ctx.unix()}.000200`, channel: 'C0LAN2Q65', event_ts: `${ctx.unix()}.000200` }) },
  { type: 'message', description: 'A message was posted in a channel the app is in.', payload: (ctx) => ({ type: 'message', channel: 'C2147483705', user: 'U2147483697', text: 'Hello world', ts: `${ctx.unix()}.000002`, channel_type: 'channel', event_ts: `${ctx.unix()}.000002` }) },
  { type: 'reaction_added', description: 'A reaction was added to a message.', payload: (ctx) => ({ type: 'reaction_added', user: 'U024BE7LH', reaction: 'thumbsup', item_user: 'U0G9QF9C6', item: { type: 'message', channel: 'C0G9QF9GZ', ts: `${ctx.unix(-60_000)}.008900` }, event_ts: `${ctx.unix()}.000300` }) },
  { type: 'team_join', description: 'A new member joined the workspace.', payload: (ctx) => ({ type: 'team_join', user: { id: 'W012A3CDE', team_id: 'T0HOOKLOOP', name: 'spengler', real_name: 'Egon Spengler', is_bot: false, updated: ctx.unix() }, event_ts: `${ctx.unix()}.000100` }) },
  { type: 'channel_created', description: 'A channel was created.', payload: (ctx) => ({ type: 'channel_created', channel: { id: 'C024BE91L', name: 'webhooks', created: ctx.unix(), creator: 'U024BE7LH' }, event_ts: `${ctx.unix()}.000100` }) },
  { type: 'app_home_opened', description: 'A user opened the app\u2019s home tab.', payload: (ctx) => ({ type: 'app_home_opened', user: 'U061F7AUR', channel: 'D0LAN2Q65', tab: 'home', event_ts: `${ctx.unix()}.000100` }) },
]
