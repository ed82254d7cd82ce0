import type { CatalogEvent, FixtureContext } from './types'

// The seed providers. Seed A names `booking.created` (payload under its {event_id, event_type,
// payload} envelope); its other types here follow the same domain (bookings, doctors, slots of its
// API). Seed B names `message.received` ({event, message: {id, …}}, deduped on
// `${event}_${message.id}`); its other types follow that shape.

function booking(ctx: FixtureContext, status: string) {
  return { booking_id: ctx.uuid(), status, slot_id: ctx.id('slot_', 12), doctor_external_id: 'mydr-12345', patient_email: 'patient@example.com', starts_at: ctx.iso(86_400_000), created_at: ctx.iso() }
}

export const providerAEvents: CatalogEvent[] = [
  { type: 'booking.created', description: 'A patient booked a slot.', payload: (ctx) => booking(ctx, 'confirmed') },
  { type: 'booking.cancelled', description: 'A booking was cancelled.', payload: (ctx) => ({ ...booking(ctx, 'cancelled'), cancelled_at: ctx.iso(), reason: 'patient' }) },
  { type: 'booking.rescheduled', description: 'A booking moved to another slot.', payload: (ctx) => ({ ...booking(ctx, 'confirmed'), previous_slot_id: ctx.id('slot_', 12) }) },
  { type: 'doctor.updated', description: 'A doctor\u2019s profile changed.', payload: (ctx) => ({ external_id: 'mydr-12345', name: 'dr Anna Nowak', specialties: ['cardiology'], updated_at: ctx.iso() }) },
  { type: 'slot.released', description: 'A slot became free again.', payload: (ctx) => ({ slot_id: ctx.id('slot_', 12), doctor_external_id: 'mydr-12345', starts_at: ctx.iso(86_400_000), released_at: ctx.iso() }) },
]

function message(ctx: FixtureContext, direction: 'inbound' | 'outbound', status: string) {
  return { id: ctx.id('msg_', 16), conversation_id: ctx.id('conv_', 16), channel: 'whatsapp', direction, status, from: '+6281200000001', text: 'Halo, apakah pesanan saya sudah dikirim?', created_at: ctx.iso() }
}

export const providerBEvents: CatalogEvent[] = [
  { type: 'message.received', description: 'A customer message arrived.', payload: (ctx) => message(ctx, 'inbound', 'received') },
  { type: 'message.sent', description: 'The assistant sent a reply.', payload: (ctx) => message(ctx, 'outbound', 'sent') },
  { type: 'message.delivered', description: 'A reply was delivered.', payload: (ctx) => message(ctx, 'outbound', 'delivered') },
  { type: 'conversation.created', description: 'A conversation started.', payload: (ctx) => ({ id: ctx.id('conv_', 16), channel: 'whatsapp', customer: { phone: '+6281200000001' }, created_at: ctx.iso() }) },
  { type: 'conversation.closed', description: 'A conversation was closed.', payload: (ctx) => ({ id: ctx.id('conv_', 16), channel: 'whatsapp', closed_at: ctx.iso(), resolution: 'resolved' }) },
]
