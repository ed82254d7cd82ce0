import { describe, expect, it } from 'vitest'
import { discordEvents } from '../../../../shared/event-catalog/discord'
import { itCompilesEveryEvent, typeErrors } from './support/type-check'
import { catalogBody } from './support/catalog-body'

// Every Discord catalog event, as the whole body Discord POSTs (the Interaction object), against
// discord-api-types' interaction types (API v10), compiled strict: a required field missing, an
// unknown field or a wrong type (a snowflake that is a number, an interaction type that is not the
// event's) fails. Interactions in a server are typed as their guild variant (`member` and
// `guild_id` required, no `user`).

const EVENT_TYPES: Record<string, string> = {
  ping: 'APIPingInteraction',
  application_command: 'APIChatInputApplicationCommandGuildInteraction',
  message_component: 'APIGuildInteractionWrapper<APIMessageComponentButtonInteraction>',
  application_command_autocomplete: 'APIApplicationCommandAutocompleteGuildInteraction',
  modal_submit: 'APIModalSubmitGuildInteraction',
}

// discord-api-types types enumerated values as TypeScript enums, which no JSON literal meets; on the
// wire they are their values. `Wire<T>` is the type as JSON carries it: a string enum is the union
// of its strings, a numeric enum the union of its numbers (an interaction's `type` stays 1 … 5), and
// a bit field (the flags enums) any number, as Discord sends combinations of its bits (or 0).
const IMPORTS = [
  "import type { APIPingInteraction, APIChatInputApplicationCommandGuildInteraction, APIGuildInteractionWrapper, APIMessageComponentButtonInteraction, APIApplicationCommandAutocompleteGuildInteraction, APIModalSubmitGuildInteraction, UserFlags, GuildMemberFlags, MessageFlags } from 'discord-api-types/v10'",
  'type Wire<T> = T extends UserFlags | GuildMemberFlags | MessageFlags ? number : T extends string ? `${T}` : T extends number ? (`${T}` extends `${infer N extends number}` ? N : T) : T extends readonly (infer U)[] ? Wire<U>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T',
]

type Body = Record<string, unknown> & { id: string; application_id: string; type: number; data?: Record<string, unknown>; member?: { user: { id: string } }; message?: { author: { id: string } } }

const discordBody = (type: string) => catalogBody<Body>('discord', type)

const check = (type: string, body: unknown) => ({ name: type, type: `Wire<${EVENT_TYPES[type] ?? 'never'}>`, value: body })

describe('Discord catalog events and discord-api-types\u2019 interaction types', () => {
  itCompilesEveryEvent('every catalog event, as the whole body, type-checks as its interaction type', IMPORTS, discordEvents, (type) => check(type, discordBody(type)))

  it('the check refuses a snowflake that is a number and a missing required field', () => {
    const command = discordBody('application_command')
    command.application_id = Number(command.application_id) as unknown as string
    const ping = discordBody('ping')
    delete (ping as Record<string, unknown>).token
    const errors = typeErrors(IMPORTS, [check('application_command', command), check('ping', ping)])
    expect(errors['application_command']!.join(' ')).toMatch(/number.*string/)
    expect(errors['ping']!.join(' ')).toMatch(/token/)
  })

  it('each event carries the interaction type Discord gives it', () => {
    expect(Object.fromEntries(discordEvents.map((e) => [e.type, discordBody(e.type).type]))).toEqual({ ping: 1, application_command: 2, message_component: 3, application_command_autocomplete: 4, modal_submit: 5 })
  })

  it('ids agree within an event: the message\u2019s author is the application, ids are fresh per send', () => {
    const pressed = discordBody('message_component')
    expect(pressed.message!.author.id).toBe(pressed.application_id)
    expect(discordBody('ping').id).not.toBe(discordBody('ping').id)
  })
})
