// list_rows: the timeline's rows with the app's filters (host/timeline-views.ts `page`): one row per
// delivery, one per dedupe key at an endpoint for the rest of the captured requests; each row with
// the ids show_request, show_delivery and `hookloop export` take.
import { z } from 'zod'
import type { TimelineFilter, TimelineRow } from '../../../shared/contract'
import { TIMELINE_STATUSES } from '../../../shared/sender'
import { defineTool } from './context'
import { iso, momentOn } from './answer-text'

function rowView(row: TimelineRow, slugOf: Map<string, string>) {
  const ids =
    row.kind === 'delivery'
      ? { deliveryId: row.deliveryId, attemptIds: row.marks.map((m) => m.id) }
      : { requestIds: row.marks.map((m) => m.id) }
  return {
    kind: row.kind,
    ...ids,
    // Hookloop's own id, and the id the consumer saw when it is another (a provider's evt_…).
    eventId: row.eventId,
    consumerEventId: row.consumerEventId ?? null,
    eventType: row.eventType,
    status: row.status,
    endpoint: row.endpointId === null ? null : (slugOf.get(row.endpointId) ?? row.endpointId),
    subscriptionId: row.subscriptionId,
    // A delivery's attempts, or a received row's arrivals.
    attempts: row.attempts,
    duplicates: row.duplicates,
    lastStatusCode: row.lastStatusCode,
    // On the row's clock: a simulation's times as time into the run, the wall times beside them.
    firstAt: momentOn(row.clock, row.firstAt),
    lastAt: momentOn(row.clock, row.lastAt),
    nextAt: momentOn(row.clock, row.nextAt),
    ...(row.clock.kind === 'simulated' ? { firstWallAt: iso(row.marks[0]?.wallAt ?? null), lastWallAt: iso(row.marks[row.marks.length - 1]?.wallAt ?? null) } : {}),
    signature: row.signature,
    clock: row.clock,
    marks: row.marks.map((m) => ({ kind: m.kind, id: m.id, n: m.n, at: momentOn(row.clock, m.at), ...(m.wallAt === undefined ? {} : { wallAt: iso(m.wallAt) }), label: m.label, ...(m.app ? { app: m.app } : {}) })),
  }
}

export const listRows = defineTool({
  name: 'list_rows',
  title: 'List and search the timeline',
  description:
    "The timeline's rows, newest first, as the app shows them: deliveries Hookloop sent (with their attempt ids) and captured requests grouped by event at each endpoint (with their request ids). Filters as in the app: endpoint (id or slug), subscription id, search (the start of an event id: Hookloop's, or the one the consumer saw such as Stripe's evt_… or X-GitHub-Delivery), eventType, status, clock ('wall' for live traffic, or a simulation id).",
  changes: false,
  input: {
    endpoint: z.string().min(1).optional().describe('endpoint id or slug'),
    subscription: z.string().min(1).optional().describe('subscription id'),
    search: z.string().min(1).optional().describe('the start of an event id (case-insensitive), as the app’s search box: Hookloop’s id, a dedupe key, or the id a provider’s consumer saw (evt_…, X-GitHub-Delivery …)'),
    eventType: z.string().min(1).optional().describe('exact event type'),
    // One status as a word (`"failed"`) or several as a list: agents write both.
    status: z
      .union([z.enum(TIMELINE_STATUSES), z.array(z.enum(TIMELINE_STATUSES)).min(1)])
      .optional()
      .describe(`a row status, or a list of them: ${TIMELINE_STATUSES.join(', ')}`),
    clock: z.string().min(1).optional().describe("'wall' for live traffic only, or a simulation id"),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(50),
  },
  async run(ctx, args) {
    const filter: TimelineFilter = {
      ...(args.endpoint ? { endpointId: (await ctx.endpoint(args.endpoint)).id } : {}),
      ...(args.subscription ? { subscriptionId: args.subscription } : {}),
      ...(args.search ? { search: args.search } : {}),
      ...(args.eventType ? { eventType: args.eventType } : {}),
      ...(args.status ? { status: typeof args.status === 'string' ? [args.status] : args.status } : {}),
      ...(args.clock ? { clock: args.clock } : {}),
    }
    const [{ rows, total }, endpoints] = await Promise.all([ctx.source.timelinePage(filter, args.offset, args.limit), ctx.source.endpoints()])
    const slugOf = new Map(endpoints.map((e) => [e.id, e.slug]))
    return { total, offset: args.offset, rows: rows.map((row) => rowView(row, slugOf)) }
  },
})
