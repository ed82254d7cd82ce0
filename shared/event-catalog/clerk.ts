import type { CatalogEvent, FixtureContext } from './types'

// Clerk: the payload is `data` of Clerk's event. Each follows the JSON type `@clerk/backend`
// publishes for its event (api/resources/Webhooks.d.ts → JSON.d.ts) and the examples of Clerk's
// webhook docs: user.created / user.updated → UserJSON, user.deleted → UserDeletedJSON,
// session.created → SessionWebhookEventJSON (the session and its user), organization.created →
// OrganizationJSON. Times are Unix milliseconds, as Clerk sends them; ids fresh per send, and a
// session's user_id is its user's id.

const IMAGE = 'https://img.clerk.com/eyJ0eXBlIjoiZGVmYXVsdCIsImlpZCI6Imluc18yaG9va2xvb3AifQ'

function user(ctx: FixtureContext, updated = false) {
  const id = ctx.id('user_', 27)
  const emailId = ctx.id('idn_', 27)
  const created = ctx.now - (updated ? 86_400_000 : 0)
  return {
    id,
    object: 'user' as const,
    username: null,
    first_name: 'Ada',
    last_name: updated ? 'King' : 'Lovelace',
    image_url: IMAGE,
    has_image: false,
    primary_email_address_id: emailId,
    primary_phone_number_id: null,
    primary_web3_wallet_id: null,
    password_enabled: true,
    two_factor_enabled: false,
    totp_enabled: false,
    backup_code_enabled: false,
    email_addresses: [
      {
        id: emailId,
        object: 'email_address' as const,
        email_address: 'ada@example.com',
        // As Clerk's webhook examples show it: status and strategy (no id or object of its own).
        verification: { status: 'verified' as const, strategy: 'email_code', attempts: 1, expire_at: created + 600_000 },
        linked_to: [],
      },
    ],
    phone_numbers: [],
    web3_wallets: [],
    organization_memberships: null,
    external_accounts: [],
    enterprise_accounts: [],
    password_last_updated_at: created,
    public_metadata: {},
    private_metadata: {},
    unsafe_metadata: {},
    external_id: null,
    last_sign_in_at: updated ? ctx.now - 3_600_000 : null,
    banned: false,
    locked: false,
    deprovisioned: false,
    lockout_expires_in_seconds: null,
    verification_attempts_remaining: 100,
    created_at: created,
    updated_at: ctx.now,
    last_active_at: updated ? ctx.now - 3_600_000 : null,
    create_organization_enabled: true,
    create_organizations_limit: null,
    delete_self_enabled: true,
    legal_accepted_at: null,
    locale: null,
    timezone: null,
  }
}

function session(ctx: FixtureContext) {
  const owner = user(ctx)
  return {
    id: ctx.id('sess_', 27),
    object: 'session' as const,
    client_id: ctx.id('client_', 27),
    user_id: owner.id,
    status: 'active',
    actor: null,
    last_active_at: ctx.now,
    expire_at: ctx.now + 7 * 86_400_000,
    abandon_at: ctx.now + 30 * 86_400_000,
    created_at: ctx.now,
    updated_at: ctx.now,
    user: { ...owner, last_sign_in_at: ctx.now, last_active_at: ctx.now },
  }
}

function organization(ctx: FixtureContext) {
  return {
    id: ctx.id('org_', 27),
    object: 'organization' as const,
    name: 'Hookloop Labs',
    slug: 'hookloop-labs',
    image_url: IMAGE,
    has_image: false,
    members_count: 1,
    pending_invitations_count: 0,
    max_allowed_memberships: 5,
    admin_delete_enabled: true,
    public_metadata: {},
    private_metadata: {},
    created_by: ctx.id('user_', 27),
    created_at: ctx.now,
    updated_at: ctx.now,
  }
}

export const clerkEvents = [
  // UserWebhookEvent 'user.created': UserJSON.
  { type: 'user.created', description: 'A user signed up.', payload: (ctx) => user(ctx) },
  // UserWebhookEvent 'user.updated': UserJSON (after a profile change).
  { type: 'user.updated', description: 'A user changed their profile.', payload: (ctx) => user(ctx, true) },
  // UserWebhookEvent 'user.deleted': UserDeletedJSON.
  { type: 'user.deleted', description: 'A user was deleted.', payload: (ctx) => ({ deleted: true, id: ctx.id('user_', 27), object: 'user' as const }) },
  // SessionWebhookEvent 'session.created': SessionWebhookEventJSON.
  { type: 'session.created', description: 'A user signed in.', payload: session },
  // OrganizationWebhookEvent 'organization.created': OrganizationJSON.
  { type: 'organization.created', description: 'An organization was created.', payload: organization },
] as const satisfies readonly CatalogEvent[]
