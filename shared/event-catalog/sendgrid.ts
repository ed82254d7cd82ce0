import type { CatalogEvent, FixtureContext } from './types'

// SendGrid Event Webhook: one event object per entry of the array body, as the "Event Webhook
// reference" lists each event's fields (delivery events and engagement events).

function common(ctx: FixtureContext, event: string) {
  const messageId = `${ctx.id('', 22)}.recvd-${ctx.id('', 10).toLowerCase()}-1-${ctx.digits(8)}-1.0`
  return {
    email: 'customer@example.com',
    timestamp: ctx.unix(),
    'smtp-id': `<${ctx.id('', 22)}@ismtpd0001p1lon1.sendgrid.net>`,
    event,
    category: ['receipts'],
    sg_event_id: ctx.id('', 22),
    sg_message_id: messageId,
  }
}

export const sendgridEvents: CatalogEvent[] = [
  // Event Webhook reference — Delivery events: processed.
  { type: 'processed', description: 'The message was received and is ready to be delivered.', payload: (ctx) => ({ ...common(ctx, 'processed'), pool: { name: 'transactional', id: 210 } }) },
  // Event Webhook reference — Delivery events: delivered (response is the receiving server's answer).
  { type: 'delivered', description: 'The receiving server accepted the message.', payload: (ctx) => ({ ...common(ctx, 'delivered'), response: '250 2.0.0 OK  1700000000 d2si1234567qkb.12 - gsmtp', ip: '168.245.10.1', tls: 1, cert_err: 0 }) },
  // Event Webhook reference — Delivery events: bounce (type "bounce" or "blocked").
  { type: 'bounce', description: 'The receiving server refused the message permanently.', payload: (ctx) => ({ ...common(ctx, 'bounce'), bounce_classification: 'Invalid Address', reason: '550 5.1.1 The email account that you tried to reach does not exist.', status: '5.1.1', type: 'bounce', ip: '168.245.10.1', tls: 1 }) },
  // Event Webhook reference — Delivery events: deferred (attempt counts the tries so far).
  { type: 'deferred', description: 'The receiving server asked to try again later.', payload: (ctx) => ({ ...common(ctx, 'deferred'), response: '400 try again later', attempt: '5', ip: '168.245.10.1', tls: 1 }) },
  // Event Webhook reference — Engagement events: open (Apple Mail Privacy Protection flag included).
  { type: 'open', description: 'The recipient opened the message.', payload: (ctx) => ({ ...common(ctx, 'open'), useragent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)', ip: '203.0.113.24', sg_machine_open: false }) },
  // Event Webhook reference — Engagement events: click (url_offset says which link).
  { type: 'click', description: 'The recipient clicked a tracked link.', payload: (ctx) => ({ ...common(ctx, 'click'), useragent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', ip: '203.0.113.24', url: 'https://example.com/orders/1001', url_offset: { index: 0, type: 'html' } }) },
]
