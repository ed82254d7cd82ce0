import type { CatalogEvent, FixtureContext } from './types'

// Discord interactions: the Interaction object (Discord Developer Docs, "Interactions — Interaction
// object"; field types as discord-api-types' interaction types, API v10, each event's named beside it). Snowflakes are strings of digits.

const APP = '1180000000000000001'
const GUILD = '1180000000000000002'
const CHANNEL = '1180000000000000003'
const PERMISSIONS = '2248473465835073'
// The largest attachment the app may send back, in bytes: 10 MiB, an unboosted server's limit.
const ATTACHMENT_SIZE_LIMIT = 10_485_760

function user(ctx: FixtureContext) {
  return { id: `11${ctx.digits(17)}`, username: 'ada', global_name: 'Ada', discriminator: '0', avatar: null, public_flags: 0 }
}

function interaction(ctx: FixtureContext, type: number, data: unknown) {
  const who = user(ctx)
  return {
    id: `11${ctx.digits(17)}`,
    application_id: APP,
    type,
    data,
    guild_id: GUILD,
    guild: { id: GUILD, locale: 'en-US', features: [] },
    channel_id: CHANNEL,
    channel: { id: CHANNEL, type: 0, name: 'general', guild_id: GUILD },
    member: { user: who, roles: [], joined_at: ctx.iso(-86_400_000), deaf: false, mute: false, flags: 0, pending: false, nick: null, avatar: null, premium_since: null, permissions: PERMISSIONS, communication_disabled_until: null },
    token: ctx.id('aW50ZXJhY3Rpb246', 120),
    version: 1,
    app_permissions: PERMISSIONS,
    locale: 'en-US',
    guild_locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': GUILD },
    context: 0,
    attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
  }
}

const command = (name: string, options?: unknown[]) => ({ id: '1180000000000000010', name, type: 1, ...(options ? { options } : {}) })

export const discordEvents: CatalogEvent[] = [
  // Interactions overview — the PING Discord sends when the endpoint URL is saved (answer PONG);
  // discord-api-types' APIPingInteraction.
  { type: 'ping', description: 'PING (type 1): Discord checks the endpoint; answer {"type": 1}.', payload: (ctx) => ({ id: `11${ctx.digits(17)}`, application_id: APP, type: 1, token: ctx.id('aW50ZXJhY3Rpb246', 120), version: 1, user: user(ctx), app_permissions: PERMISSIONS, entitlements: [], authorizing_integration_owners: {}, attachment_size_limit: ATTACHMENT_SIZE_LIMIT }) },
  // Interaction object — APPLICATION_COMMAND (type 2) with a chat-input command's data;
  // APIChatInputApplicationCommandGuildInteraction.
  { type: 'application_command', description: 'A slash command was used (type 2).', payload: (ctx) => interaction(ctx, 2, command('order', [{ name: 'id', type: 3, value: '1001' }])) },
  // Interaction object — MESSAGE_COMPONENT (type 3): a button press (component_type 2) on a message;
  // APIMessageComponentButtonInteraction, in a guild.
  { type: 'message_component', description: 'A button on a message was pressed (type 3).', payload: (ctx) => ({ ...interaction(ctx, 3, { custom_id: 'refund:1001', component_type: 2 }), message: { id: `11${ctx.digits(17)}`, channel_id: CHANNEL, type: 0, content: 'Order 1001 shipped', timestamp: ctx.iso(-60_000), author: { id: APP, username: 'Hookloop', discriminator: '0', avatar: null, bot: true, global_name: null }, components: [], attachments: [], embeds: [], mentions: [], mention_roles: [], pinned: false, mention_everyone: false, tts: false, edited_timestamp: null, flags: 0 } }) },
  // Interaction object — APPLICATION_COMMAND_AUTOCOMPLETE (type 4): the focused option being typed;
  // APIApplicationCommandAutocompleteGuildInteraction.
  { type: 'application_command_autocomplete', description: 'A command option is being typed (type 4).', payload: (ctx) => interaction(ctx, 4, command('order', [{ name: 'id', type: 3, value: '10', focused: true }])) },
  // Interaction object — MODAL_SUBMIT (type 5): the modal's custom_id and its text inputs;
  // APIModalSubmitGuildInteraction.
  { type: 'modal_submit', description: 'A modal was submitted (type 5).', payload: (ctx) => interaction(ctx, 5, { custom_id: 'feedback', components: [{ type: 1, components: [{ type: 4, custom_id: 'comment', value: 'Arrived on time.' }] }] }) },
]
