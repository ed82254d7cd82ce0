import type { CatalogEvent, FixtureContext } from './types'

// Resend: the payload is `data` of `{type, created_at, data}`. Each follows the event's type in the
// `resend` package (EmailSentEvent … : BaseEmailEventData, with `bounce` or `click` where the event
// has one) and the examples of Resend's "Event types" page. Ids are fresh per send; `created_at`
// of the data is when the email was sent, in Resend's own `+00:00` form.

function email(ctx: FixtureContext) {
  return {
    created_at: ctx.iso(-2_000).replace('Z', '+00:00'),
    email_id: ctx.uuid(),
    message_id: `<${ctx.uuid()}@email.amazonses.com>`,
    from: 'Hookloop <onboarding@resend.dev>',
    to: ['delivered@resend.dev'],
    subject: 'Confirm your email',
    tags: { category: 'confirm_email' },
  }
}

export const resendEvents = [
  // EmailSentEvent 'email.sent': BaseEmailEventData.
  { type: 'email.sent', description: 'Resend accepted an email for delivery.', payload: email },
  // EmailDeliveredEvent 'email.delivered': BaseEmailEventData.
  { type: 'email.delivered', description: 'An email reached the recipient\u2019s mail server.', payload: email },
  // EmailBouncedEvent 'email.bounced': BaseEmailEventData & {bounce}.
  {
    type: 'email.bounced',
    description: 'The recipient\u2019s mail server rejected an email for good.',
    payload: (ctx: FixtureContext) => ({ ...email(ctx), to: ['bounced@resend.dev'], bounce: { message: 'The recipient\u2019s email address is on the suppression list because it has a recent history of producing hard bounces.', subType: 'Suppressed', type: 'Permanent' } }),
  },
  // EmailOpenedEvent 'email.opened': BaseEmailEventData.
  { type: 'email.opened', description: 'The recipient opened an email.', payload: email },
  // EmailClickedEvent 'email.clicked': BaseEmailEventData & {click}.
  {
    type: 'email.clicked',
    description: 'The recipient clicked a link in an email.',
    payload: (ctx: FixtureContext) => ({ ...email(ctx), click: { ipAddress: '203.0.113.24', link: 'https://hookloop.example/confirm', timestamp: ctx.iso(), userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15' } }),
  },
] as const satisfies readonly CatalogEvent[]
