import type { CatalogEvent, FixtureContext } from './types'

// Mailgun webhooks: the event-data object per event, as Mailgun's "Events" reference and its
// webhook sample payloads write them (timestamps are Unix seconds with a fraction).

const DOMAIN = 'mg.example.com'

function eventData(ctx: FixtureContext, event: string, extra: Record<string, unknown>) {
  const messageId = `${ctx.digits(14)}.1.${ctx.id('', 16)}@${DOMAIN}`
  return {
    id: ctx.id('', 22),
    timestamp: ctx.now / 1000,
    'log-level': event === 'failed' ? 'error' : event === 'complained' ? 'warn' : 'info',
    event,
    recipient: 'alice@example.com',
    'recipient-domain': 'example.com',
    tags: ['receipts'],
    campaigns: [],
    'user-variables': { order_id: '1001' },
    flags: { 'is-routed': false, 'is-authenticated': true, 'is-system-test': false, 'is-test-mode': false },
    message: { headers: { to: 'Alice <alice@example.com>', 'message-id': messageId, from: `Shop <orders@${DOMAIN}>`, subject: 'Your order 1001' }, attachments: [], size: 4211 },
    ...extra,
  }
}

const envelope = { transport: 'smtp', sender: `orders@${DOMAIN}`, 'sending-ip': '209.61.154.250', targets: 'alice@example.com' }
const client = { 'client-os': 'macOS', 'device-type': 'desktop', 'client-name': 'Apple Mail', 'client-type': 'email client', 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)' }
const geolocation = { country: 'US', region: 'CA', city: 'San Francisco' }

export const mailgunEvents: CatalogEvent[] = [
  // Events reference — delivered: delivery-status of the accepting server, storage of the message.
  { type: 'delivered', description: 'The recipient\u2019s server accepted the message.', payload: (ctx) => eventData(ctx, 'delivered', { envelope, 'delivery-status': { tls: true, 'mx-host': 'mx.example.com', code: 250, description: '', 'session-seconds': 0.43, utf8: true, 'attempt-no': 1, message: 'OK', 'certificate-verified': true }, storage: { url: `https://se.api.mailgun.net/v3/domains/${DOMAIN}/messages/${ctx.id('', 32)}`, key: ctx.id('', 32) } }) },
  // Events reference — failed (permanent): severity, reason and the server's answer.
  { type: 'failed', description: 'The message could not be delivered (permanent failure).', payload: (ctx) => eventData(ctx, 'failed', { severity: 'permanent', reason: 'bounce', envelope, 'delivery-status': { tls: true, 'mx-host': 'mx.example.com', code: 550, description: 'No such user', 'attempt-no': 1, message: '550 5.1.1 The email account that you tried to reach does not exist.', 'certificate-verified': true } }) },
  // Events reference — opened: the client and where it was.
  { type: 'opened', description: 'The recipient opened the message.', payload: (ctx) => eventData(ctx, 'opened', { ip: '50.56.129.169', geolocation, 'client-info': client }) },
  // Events reference — clicked: the link's url.
  { type: 'clicked', description: 'The recipient clicked a tracked link.', payload: (ctx) => eventData(ctx, 'clicked', { url: 'https://example.com/orders/1001', ip: '50.56.129.169', geolocation, 'client-info': client }) },
  // Events reference — unsubscribed.
  { type: 'unsubscribed', description: 'The recipient unsubscribed.', payload: (ctx) => eventData(ctx, 'unsubscribed', { ip: '50.56.129.169', geolocation, 'client-info': client }) },
  // Events reference — complained: marked as spam.
  { type: 'complained', description: 'The recipient marked the message as spam.', payload: (ctx) => eventData(ctx, 'complained', {}) },
]
