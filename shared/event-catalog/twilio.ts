import type { CatalogEvent, FixtureContext } from './types'

// Twilio: form-encoded parameters (the payload is a flat object of strings), as in Twilio's
// "Messaging webhooks" and "Voice webhooks" request parameter tables. Twilio sends no event type
// of its own: these names say which webhook (incoming message, status callback, call) it is.

const ACCOUNT = 'AC5ef872f6da5a21de157d80997a64bd33'
const sid = (ctx: FixtureContext, prefix: string) => `${prefix}${ctx.id('', 32).toLowerCase().replace(/[g-z]/g, (c) => String(c.charCodeAt(0) % 10))}`

export const twilioEvents: CatalogEvent[] = [
  {
    type: 'message.received',
    description: 'An incoming SMS (the messaging webhook).',
    payload: (ctx) => {
      const id = sid(ctx, 'SM')
      return { ToCountry: 'US', ToState: 'CA', SmsMessageSid: id, NumMedia: '0', ToCity: 'SAN FRANCISCO', FromZip: '94105', SmsSid: id, FromState: 'CA', SmsStatus: 'received', FromCity: 'SAN FRANCISCO', Body: 'Is my appointment still on?', FromCountry: 'US', To: '+14155550100', MessagingServiceSid: sid(ctx, 'MG'), ToZip: '94107', NumSegments: '1', MessageSid: id, AccountSid: ACCOUNT, From: '+14155550199', ApiVersion: '2010-04-01' }
    },
  },
  { type: 'message.delivered', description: 'A message status callback: delivered.', payload: (ctx) => ({ MessageSid: sid(ctx, 'SM'), SmsSid: sid(ctx, 'SM'), AccountSid: ACCOUNT, From: '+14155550100', To: '+14155550199', MessageStatus: 'delivered', SmsStatus: 'delivered', ApiVersion: '2010-04-01' }) },
  { type: 'message.failed', description: 'A message status callback: undelivered, with its error code.', payload: (ctx) => ({ MessageSid: sid(ctx, 'SM'), AccountSid: ACCOUNT, From: '+14155550100', To: '+14155550199', MessageStatus: 'undelivered', ErrorCode: '30003', ApiVersion: '2010-04-01' }) },
  { type: 'call.incoming', description: 'An incoming voice call (the voice webhook, expects TwiML).', payload: (ctx) => ({ CallSid: sid(ctx, 'CA'), AccountSid: ACCOUNT, From: '+14155550199', To: '+14155550100', CallStatus: 'ringing', Direction: 'inbound', ApiVersion: '2010-04-01', Caller: '+14155550199', Called: '+14155550100', CallerCountry: 'US' }) },
  { type: 'call.completed', description: 'A call status callback: completed, with its duration.', payload: (ctx) => ({ CallSid: sid(ctx, 'CA'), AccountSid: ACCOUNT, From: '+14155550199', To: '+14155550100', CallStatus: 'completed', CallDuration: '42', Duration: '1', Direction: 'inbound', ApiVersion: '2010-04-01', Timestamp: new Date(ctx.now).toUTCString(), SequenceNumber: '0' }) },
]
