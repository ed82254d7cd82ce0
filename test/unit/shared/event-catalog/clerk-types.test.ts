import type { WebhookEvent } from '@clerk/backend/webhooks'
import { describe, expect, it } from 'vitest'
import { providerBody } from '../../../../electron/engine/providers'
import { fixtureContext } from '../../../../shared/event-catalog'
import { clerkEvents } from '../../../../shared/event-catalog/clerk'
import { PROVIDERS } from '../../../../shared/providers'

// Clerk's catalog against the types `@clerk/backend` publishes for its webhook events, checked by
// the compiler (npm run typecheck compiles this file): each payload must be assignable to its
// event's data type, so a missing required field or a wrong type fails the build. One exception,
// named: Clerk's webhook examples carry an email address's verification as {status, strategy …}
// while the SDK types it as a resource with an id and object, so those two are not required.

type PayloadOf<T extends (typeof clerkEvents)[number]['type']> = ReturnType<Extract<(typeof clerkEvents)[number], { type: T }>['payload']>
// Clerk types several event names with one data type (`Webhook<'user.created' | 'user.updated', UserJSON>`).
type DataOf<T extends WebhookEvent['type'], E = WebhookEvent> = E extends { type: infer U; data: infer D } ? (T extends U ? D : never) : never
type UserJSON = DataOf<'user.created'>
type EmailAddressJSON = UserJSON['email_addresses'][number]
type Verification = Omit<NonNullable<EmailAddressJSON['verification']>, 'id' | 'object'>
type UserAsSent = Omit<UserJSON, 'email_addresses'> & { email_addresses: Array<Omit<EmailAddressJSON, 'verification'> & { verification: Verification | null }> }

/** Compiles only when P is assignable to T. */
function assignable<P, T>(_check: P extends T ? true : never): void {}

assignable<PayloadOf<'user.created'>, UserAsSent>(true)
assignable<PayloadOf<'user.updated'>, UserAsSent>(true)
assignable<PayloadOf<'user.deleted'>, DataOf<'user.deleted'>>(true)
assignable<PayloadOf<'session.created'>, Omit<DataOf<'session.created'>, 'user'> & { user: UserAsSent }>(true)
assignable<PayloadOf<'organization.created'>, DataOf<'organization.created'>>(true)

describe('Clerk catalog', () => {
  it('every event body has the envelope of a WebhookEvent, its type one Clerk sends, its times in ms', () => {
    const types: Array<WebhookEvent['type']> = ['user.created', 'user.updated', 'user.deleted', 'session.created', 'organization.created']
    expect(clerkEvents.map((e) => e.type)).toEqual(types)
    const now = Date.UTC(2026, 11, 2)
    for (const event of clerkEvents) {
      const payload = event.payload(fixtureContext(now))
      const body = JSON.parse(providerBody(PROVIDERS.clerk, { eventId: 'e1', eventType: event.type, payload: Buffer.from(JSON.stringify(payload)), createdAt: now, sentAt: now }).toString()) as Record<string, unknown>
      expect(Object.keys(body).sort()).toEqual(['data', 'event_attributes', 'instance_id', 'object', 'timestamp', 'type'])
      expect(body).toMatchObject({ object: 'event', type: event.type, timestamp: now, instance_id: expect.stringMatching(/^ins_/) as unknown, data: payload })
    }
    const session = clerkEvents.find((e) => e.type === 'session.created')!.payload(fixtureContext(now)) as { user_id: string; user: { id: string } }
    expect(session.user_id).toBe(session.user.id)
  })
})
