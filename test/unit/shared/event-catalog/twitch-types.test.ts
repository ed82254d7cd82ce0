import { describe, expect, it } from 'vitest'
import { twitchEvents } from '../../../../shared/event-catalog/twitch'
import { itCompilesEveryEvent, nodeModulesPath, typeErrors } from './support/type-check'
import { catalogBody } from './support/catalog-body'

// Every Twitch catalog message, as the whole body Twitch POSTs, against @twurple/eventsub-base's
// types, compiled strict: the notification as its `EventSubSingleNotificationPayload` with `event`
// typed as the subscription type's event data (`EventSubChannelFollowEventData` …), the revocation
// as `EventSubRevocationPayload`. The package's index exports the envelope types but not the event
// data types; those come from the declaration files it ships beside each event class
// (lib/events/<Event>.external.d.ts). Twurple's subscription body leaves out `cost`, which Twitch's
// EventSub reference puts in every subscription object, so the check adds it.

const DATA_TYPES: Record<string, [file: string, type: string]> = {
  'channel.follow': ['EventSubChannelFollowEvent', 'EventSubChannelFollowEventData'],
  'stream.online': ['EventSubStreamOnlineEvent', 'EventSubStreamOnlineEventData'],
  'stream.offline': ['EventSubStreamOfflineEvent', 'EventSubStreamOfflineEventData'],
  'channel.subscribe': ['EventSubChannelSubscriptionEvent', 'EventSubChannelSubscriptionEventData'],
  'channel.cheer': ['EventSubChannelCheerEvent', 'EventSubChannelCheerEventData'],
}

const LIB = '@twurple/eventsub-base/lib'
const dts = (file: string): string => JSON.stringify(nodeModulesPath(`${LIB}/${file}.js`))

const IMPORTS = [
  `import type { EventSubSingleNotificationPayload, EventSubRevocationPayload } from ${dts('EventSubPayload.external')}`,
  ...Object.values(DATA_TYPES).map(([file, type]) => `import type { ${type} } from ${dts(`events/${file}.external`)}`),
  'type WithCost<T extends { subscription: object }> = { [K in keyof T]: K extends \'subscription\' ? T[K] & { cost: number } : T[K] }',
]

const bodyType = (type: string): string => {
  if (type === 'revocation') return 'WithCost<EventSubRevocationPayload>'
  const data = DATA_TYPES[type]
  return data ? `WithCost<Omit<EventSubSingleNotificationPayload, 'event'> & { event: ${data[1]} }>` : 'never'
}

type Body = { subscription: Record<string, unknown> & { type: string; condition: Record<string, string> }; event?: Record<string, unknown> }

const twitchBody = (type: string) => catalogBody<Body>('twitch', type)

const check = (type: string, body: unknown) => ({ name: type, type: bodyType(type), value: body })

describe('Twitch catalog messages and @twurple/eventsub-base\u2019s EventSub types', () => {
  itCompilesEveryEvent('every catalog message, as the whole body, type-checks as its notification or revocation', IMPORTS, twitchEvents, (type) => check(type, twitchBody(type)))

  it('the check refuses a tier or a subscription status Twitch does not have and a missing required field', () => {
    const subscribed = twitchBody('channel.subscribe')
    subscribed.event!.tier = 'gold'
    const online = twitchBody('stream.online')
    delete online.event!.started_at
    const revoked = twitchBody('revocation')
    revoked.subscription.status = 'paused'
    const errors = typeErrors(IMPORTS, [check('channel.subscribe', subscribed), check('stream.online', online), check('revocation', revoked)])
    expect(errors['channel.subscribe']!.join(' ')).toMatch(/gold/)
    expect(errors['stream.online']!.join(' ')).toMatch(/started_at/)
    expect(errors['revocation']!.join(' ')).toMatch(/paused/)
  })

  it('ids agree within a message: the condition names the event\u2019s broadcaster, the subscription type is the event\u2019s', () => {
    for (const e of twitchEvents.filter((x) => x.type !== 'revocation')) {
      const body = twitchBody(e.type)
      expect(body.subscription.type).toBe(e.type)
      expect(body.event!.broadcaster_user_id).toBe(body.subscription.condition.broadcaster_user_id)
    }
  })
})
