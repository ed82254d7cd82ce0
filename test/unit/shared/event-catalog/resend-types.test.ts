import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { providerBody } from '../../../../electron/engine/providers'
import { fixtureContext } from '../../../../shared/event-catalog'
import { resendEvents } from '../../../../shared/event-catalog/resend'
import { PROVIDERS } from '../../../../shared/providers'
import { noErrorsFor, typeErrors } from './support/type-check'

// Every Resend catalog event, as the whole body Hookloop sends, against the `resend` package's own
// `WebhookEventPayload` type: the body is written into a source file as a literal of that type
// and the TypeScript compiler checks it (a missing required field, a field Resend's type lacks or
// a wrong type is an error). A program of its own (support/type-check.ts): resend's declarations
// import React's, which must not enter the project's node program.

const IMPORTS = [`import type { WebhookEventPayload } from 'resend'`]
const checks = (bodies: { type: string; body: unknown }[]) => bodies.map(({ type, body }) => ({ name: type, type: 'WebhookEventPayload', value: body }))

function body(type: string, payload: unknown, now: number): unknown {
  return JSON.parse(providerBody(PROVIDERS.resend, { eventId: randomUUID(), eventType: type, payload: Buffer.from(JSON.stringify(payload)), createdAt: now, sentAt: now }).toString('utf8'))
}

describe('Resend catalog against the resend package\u2019s WebhookEventPayload', () => {
  const now = Date.UTC(2026, 11, 2)

  it('every event body is {type, created_at, data} with the catalog payload as data', () => {
    for (const event of resendEvents) {
      const payload = event.payload(fixtureContext(now))
      expect(body(event.type, payload, now)).toEqual({ type: event.type, created_at: new Date(now).toISOString(), data: payload })
    }
  })

  it('every event body compiles as a WebhookEventPayload; a body missing a field does not', () => {
    const bodies = resendEvents.map((e) => ({ type: e.type, body: body(e.type, e.payload(fixtureContext(now)), now) }))
    expect(typeErrors(IMPORTS, checks(bodies))).toEqual(noErrorsFor(resendEvents))
    const bounced = body('email.bounced', { ...resendEvents[2].payload(fixtureContext(now)), bounce: undefined }, now)
    expect(typeErrors(IMPORTS, checks([{ type: 'email.bounced', body: bounced }]))['email.bounced']!.join(' ')).toMatch(/bounce/)
  }, 60_000)
})
