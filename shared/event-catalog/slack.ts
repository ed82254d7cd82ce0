import type { CatalogEvent, FixtureContext } from './types'

// Slack Events API: the payload is the inner `event` of the event_callback (its `type` is the
// event type). Shapes follow api.slack.com/events and the event types @slack/types publishes
// (`AppMentionEvent`, `GenericMessageEvent`, `ReactionAddedEvent`, `TeamJoinEvent`,
// `ChannelCreatedEvent`, `AppHomeOpenedEvent`): every required field. The workspace is the
// pack's (team T0HOOKLOOP, the app's bot user U0HOOKBOT, as the envelope's authorizations say).

const TEAM = 'T0HOOKLOOP'
const BOT_USER = 'U0HOOKBOT'

/** A message timestamp: Unix seconds and a unique six-digit suffix, as Slack writes them. */
const ts = (ctx: FixtureContext, offsetMs = 0): string => `${ctx.unix(offsetMs)}.${ctx.digits(6)}`

/** A Slack id: its kind's letter and upper-case alphanumerics (C… channel, U… user). */
const slackId = (ctx: FixtureContext, kind: string): string => `${kind}${ctx.id('', 10).toUpperCase()}`

// AppMentionEvent: the message that mentions the app's bot user.
function appMention(ctx: FixtureContext) {
  const at = ts(ctx)
  return { type: 'app_mention', user: 'U061F7AUR', team: TEAM, text: `<@${BOT_USER}> is the deploy done?`, ts: at, channel: 'C0LAN2Q65', event_ts: at, client_msg_id: ctx.uuid() }
}

// GenericMessageEvent (no subtype: a user's plain message).
function message(ctx: FixtureContext) {
  const at = ts(ctx)
  return { type: 'message', channel: 'C2147483705', user: 'U2147483697', team: TEAM, text: 'Hello world', ts: at, channel_type: 'channel', event_ts: at, client_msg_id: ctx.uuid() }
}

// ReactionAddedEvent: the reacted-to message is an earlier one, by item_user.
function reactionAdded(ctx: FixtureContext) {
  return { type: 'reaction_added', user: 'U024BE7LH', reaction: 'thumbsup', item_user: 'U0G9QF9C6', item: { type: 'message', channel: 'C0G9QF9GZ', ts: ts(ctx, -60_000) }, event_ts: ts(ctx) }
}

// TeamJoinEvent: the whole user object of the new member.
function teamJoin(ctx: FixtureContext) {
  const id = slackId(ctx, 'U')
  const image = (size: number) => `https://avatars.slack-edge.com/2026-12-01/${id}_${size}.png`
  return {
    type: 'team_join',
    user: {
      id,
      team_id: TEAM,
      name: 'spengler',
      deleted: false,
      color: '9f69e7',
      real_name: 'Egon Spengler',
      tz: 'America/New_York',
      tz_label: 'Eastern Standard Time',
      tz_offset: -18000,
      profile: {
        title: 'Engineer',
        phone: '',
        skype: '',
        real_name: 'Egon Spengler',
        real_name_normalized: 'Egon Spengler',
        display_name: 'spengler',
        display_name_normalized: 'spengler',
        status_text: '',
        status_text_canonical: '',
        status_emoji: '',
        status_emoji_display_info: [],
        status_expiration: 0,
        avatar_hash: ctx.id('', 12).toLowerCase(),
        first_name: 'Egon',
        last_name: 'Spengler',
        email: 'spengler@example.com',
        image_24: image(24),
        image_32: image(32),
        image_48: image(48),
        image_72: image(72),
        image_192: image(192),
        image_512: image(512),
        team: TEAM,
        fields: null,
      },
      is_admin: false,
      is_owner: false,
      is_primary_owner: false,
      is_restricted: false,
      is_ultra_restricted: false,
      is_bot: false,
      is_app_user: false,
      is_email_confirmed: true,
      updated: ctx.unix(),
      locale: 'en-US',
      who_can_share_contact_card: 'EVERYONE',
    },
    cache_ts: ctx.unix(),
    event_ts: ts(ctx),
  }
}

// ChannelCreatedEvent: a new public channel of this workspace.
function channelCreated(ctx: FixtureContext) {
  return {
    type: 'channel_created',
    channel: {
      id: slackId(ctx, 'C'),
      is_channel: true,
      name: 'webhooks',
      name_normalized: 'webhooks',
      created: ctx.unix(),
      creator: 'U024BE7LH',
      is_shared: false,
      is_org_shared: false,
      context_team_id: TEAM,
      is_archived: false,
      is_frozen: false,
      is_general: false,
      is_group: false,
      is_private: false,
      is_ext_shared: false,
      is_im: false,
      is_mpim: false,
      is_pending_ext_shared: false,
    },
    event_ts: ts(ctx),
  }
}

// AppHomeOpenedEvent: the user's direct-message channel with the app.
function appHomeOpened(ctx: FixtureContext) {
  return { type: 'app_home_opened', user: 'U061F7AUR', channel: 'D0LAN2Q65', tab: 'home', event_ts: ts(ctx) }
}

export const slackEvents: CatalogEvent[] = [
  { type: 'app_mention', description: 'The app was mentioned in a channel.', payload: appMention },
  { type: 'message', description: 'A message was posted in a channel the app is in.', payload: message },
  { type: 'reaction_added', description: 'A reaction was added to a message.', payload: reactionAdded },
  { type: 'team_join', description: 'A new member joined the workspace.', payload: teamJoin },
  { type: 'channel_created', description: 'A channel was created.', payload: channelCreated },
  { type: 'app_home_opened', description: 'A user opened the app\u2019s home tab.', payload: appHomeOpened },
]
