import type { CatalogEvent, FixtureContext } from './types'

// Intercom webhooks: the item of a notification (data.item) per topic, as the REST API returns
// the object (Intercom API reference: Contacts, Conversations; API version 2.11).

function contact(ctx: FixtureContext, role: 'user' | 'lead') {
  const at = ctx.unix()
  return {
    type: 'contact',
    id: ctx.id('', 24).toLowerCase(),
    workspace_id: 'hkl0op5x',
    external_id: role === 'user' ? `user-${ctx.digits(6)}` : null,
    role,
    email: 'ada@example.com',
    phone: null,
    name: 'Ada Lovelace',
    avatar: null,
    owner_id: null,
    social_profiles: { type: 'list', data: [] },
    has_hard_bounced: false,
    marked_email_as_spam: false,
    unsubscribed_from_emails: false,
    created_at: at,
    updated_at: at,
    signed_up_at: role === 'user' ? at : null,
    last_seen_at: null,
    last_replied_at: null,
    last_contacted_at: null,
    last_email_opened_at: null,
    last_email_clicked_at: null,
    language_override: null,
    browser: null,
    browser_version: null,
    browser_language: null,
    os: null,
    location: { type: 'location', country: null, region: null, city: null, country_code: null, continent_code: null },
    android_app_name: null,
    ios_app_name: null,
    custom_attributes: {},
    tags: { type: 'list', data: [], url: '/contacts/tags', total_count: 0, has_more: false },
    notes: { type: 'list', data: [], url: '/contacts/notes', total_count: 0, has_more: false },
    companies: { type: 'list', data: [], url: '/contacts/companies', total_count: 0, has_more: false },
  }
}

function conversation(ctx: FixtureContext, state: 'open' | 'closed', part: { part_type: string; body: string | null; author: Record<string, unknown> }) {
  const at = ctx.unix()
  const customer = ctx.id('', 24).toLowerCase()
  return {
    type: 'conversation',
    id: ctx.digits(12),
    title: null,
    created_at: at,
    updated_at: at,
    waiting_since: state === 'open' ? at : null,
    snoozed_until: null,
    open: state === 'open',
    state,
    read: false,
    priority: 'not_priority',
    admin_assignee_id: null,
    team_assignee_id: null,
    tags: { type: 'tag.list', tags: [] },
    conversation_rating: null,
    source: { type: 'conversation', id: ctx.digits(9), delivered_as: 'customer_initiated', subject: '', body: '<p>Where is my order?</p>', author: { type: 'user', id: customer, name: 'Ada Lovelace', email: 'ada@example.com' }, attachments: [], url: null, redacted: false },
    contacts: { type: 'contact.list', contacts: [{ type: 'contact', id: customer, external_id: null }] },
    teammates: { type: 'admin.list', admins: [] },
    custom_attributes: {},
    first_contact_reply: { created_at: at, type: 'conversation', url: null },
    sla_applied: null,
    statistics: null,
    conversation_parts: { type: 'conversation_part.list', conversation_parts: [{ type: 'conversation_part', id: ctx.digits(10), part_type: part.part_type, body: part.body, created_at: at, updated_at: at, notified_at: at, assigned_to: null, author: part.author, attachments: [], external_id: null, redacted: false }], total_count: 1 },
    linked_objects: { type: 'list', data: [], total_count: 0, has_more: false },
    ai_agent_participated: false,
  }
}

const ADMIN = { type: 'admin', id: '8151320', name: 'Grace Hopper', email: 'grace@example.com' }

export const intercomEvents: CatalogEvent[] = [
  // Webhook topics — contact.user.created: a Contact (role user).
  { type: 'contact.user.created', description: 'A user contact was created.', payload: (ctx) => contact(ctx, 'user') },
  // Webhook topics — contact.lead.created: a Contact (role lead).
  { type: 'contact.lead.created', description: 'A lead was created.', payload: (ctx) => contact(ctx, 'lead') },
  // Webhook topics — conversation.user.created: a Conversation a customer started.
  { type: 'conversation.user.created', description: 'A customer started a conversation.', payload: (ctx) => conversation(ctx, 'open', { part_type: 'comment', body: '<p>Where is my order?</p>', author: { type: 'user', id: ctx.id('', 24).toLowerCase(), name: 'Ada Lovelace', email: 'ada@example.com' } }) },
  // Webhook topics — conversation.admin.replied: the teammate's reply as the last part.
  { type: 'conversation.admin.replied', description: 'A teammate replied in a conversation.', payload: (ctx) => conversation(ctx, 'open', { part_type: 'comment', body: '<p>It ships today.</p>', author: ADMIN }) },
  // Webhook topics — conversation.admin.closed: the close part.
  { type: 'conversation.admin.closed', description: 'A teammate closed a conversation.', payload: (ctx) => conversation(ctx, 'closed', { part_type: 'close', body: null, author: ADMIN }) },
]
