import type { CatalogEvent, FixtureContext } from './types'

// HubSpot webhooks: one event object per entry of the array body, as the Webhooks API docs list
// its fields (eventId, subscriptionId, portalId, appId, occurredAt, subscriptionType,
// attemptNumber, objectId, changeSource, and for property changes propertyName/propertyValue).

const PORTAL = 62515
const APP = 1160452

function event(ctx: FixtureContext, subscriptionType: string, extra: Record<string, unknown>) {
  return {
    eventId: Number(ctx.digits(10)),
    subscriptionId: 2881778,
    portalId: PORTAL,
    appId: APP,
    occurredAt: ctx.now,
    subscriptionType,
    attemptNumber: 0,
    objectId: Number(ctx.digits(9)),
    changeFlag: subscriptionType.endsWith('.creation') ? 'CREATED' : subscriptionType.endsWith('.deletion') ? 'DELETED' : 'PROPERTY_CHANGE',
    changeSource: 'CRM_UI',
    sourceId: `userId:${ctx.digits(8)}`,
    ...extra,
  }
}

export const hubspotEvents: CatalogEvent[] = [
  // Webhooks API — contact.creation.
  { type: 'contact.creation', description: 'A contact was created.', payload: (ctx) => event(ctx, 'contact.creation', {}) },
  // Webhooks API — contact.propertyChange (the subscription names the property).
  { type: 'contact.propertyChange', description: 'A contact property changed (here: email).', payload: (ctx) => event(ctx, 'contact.propertyChange', { propertyName: 'email', propertyValue: 'ada@example.com' }) },
  // Webhooks API — contact.deletion.
  { type: 'contact.deletion', description: 'A contact was deleted.', payload: (ctx) => event(ctx, 'contact.deletion', {}) },
  // Webhooks API — deal.creation.
  { type: 'deal.creation', description: 'A deal was created.', payload: (ctx) => event(ctx, 'deal.creation', {}) },
  // Webhooks API — deal.propertyChange (here: dealstage).
  { type: 'deal.propertyChange', description: 'A deal moved to another stage.', payload: (ctx) => event(ctx, 'deal.propertyChange', { propertyName: 'dealstage', propertyValue: 'closedwon' }) },
  // Webhooks API — company.creation.
  { type: 'company.creation', description: 'A company was created.', payload: (ctx) => event(ctx, 'company.creation', {}) },
]
