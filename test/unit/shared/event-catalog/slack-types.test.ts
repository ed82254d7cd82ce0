import { describe, expect, it } from 'vitest'
import { slackEvents } from '../../../../shared/event-catalog/slack'
import { itCompilesEveryEvent, typeErrors, wrappedChecks } from './support/type-check'
import { catalogBody } from './support/catalog-body'

// Every Slack catalog event against the event types @slack/types publishes, compiled strict: the
// inner event as its own type (a required field missing, an unknown field or a wrong type fails),
// and the whole body as @slack/bolt's `EnvelopedEvent` of it (the event_callback around it).

/** The @slack/types type of each catalog event's inner event. */
const EVENT_TYPES: Record<string, string> = {
  app_mention: 'AppMentionEvent',
  // Slack leaves `subtype` out of a plain message; the type writes that as a required undefined.
  message: "Omit<GenericMessageEvent, 'subtype'> & { subtype?: undefined }",
  reaction_added: 'ReactionAddedEvent',
  team_join: 'TeamJoinEvent',
  channel_created: 'ChannelCreatedEvent',
  app_home_opened: 'AppHomeOpenedEvent',
}

const IMPORTS = [
  "import type { AppMentionEvent, GenericMessageEvent, ReactionAddedEvent, TeamJoinEvent, ChannelCreatedEvent, AppHomeOpenedEvent } from '@slack/types'",
  "import type { EnvelopedEvent } from '@slack/bolt'",
]

const slackBody = (type: string) => catalogBody<{ event: Record<string, unknown> } & Record<string, unknown>>('slack', type)

const checks = (type: string, body: { event: unknown }) => wrappedChecks(type, EVENT_TYPES[type] ?? 'never', 'EnvelopedEvent', body.event, body)

describe('Slack catalog events and @slack/types', () => {
  itCompilesEveryEvent('every catalog event type-checks as its Slack event type, inside an EnvelopedEvent', IMPORTS, slackEvents, (type) => checks(type, slackBody(type)))

  it('the check refuses an event with a required field missing', () => {
    const body = slackBody('channel_created') as { event: { channel: Record<string, unknown> } }
    delete body.event.channel.is_private
    expect(typeErrors(IMPORTS, checks('channel_created', body))['channel_created']!.join(' ')).toMatch(/is_private/)
  })

  it('ids agree within an event: a mention names the app\u2019s bot user, a message\u2019s ts is its event_ts, the workspace is the envelope\u2019s', () => {
    const mention = slackBody('app_mention') as { event: { text: string; ts: string; event_ts: string; team: string }; authorizations: { user_id: string }[]; team_id: string }
    expect(mention.event.text).toContain(`<@${mention.authorizations[0]!.user_id}>`)
    expect(mention.event.ts).toBe(mention.event.event_ts)
    expect(mention.event.team).toBe(mention.team_id)
    const joined = slackBody('team_join') as { event: { user: { team_id: string } }; team_id: string }
    expect(joined.event.user.team_id).toBe(joined.team_id)
  })

  it('values are fresh per send', () => {
    expect(slackBody('message').event.ts).not.toBe(slackBody('message').event.ts)
    expect((slackBody('channel_created').event.channel as { id: string }).id).not.toBe((slackBody('channel_created').event.channel as { id: string }).id)
  })
})
