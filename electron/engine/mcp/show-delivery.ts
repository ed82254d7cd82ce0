// show_delivery: one delivery with every attempt as the inspector shows it (host/detail-views.ts):
// what was sent (signature headers redacted), what came back, the decision after each try.
import { defineTool, rowIdInput } from './context'
import { bodyOf, iso, momentOn, redactedHeaders, redactUrl } from './answer-text'

export const showDelivery = defineTool({
  name: 'show_delivery',
  title: 'Show a delivery and its attempts',
  description:
    'One delivery by id (list_rows gives the ids): the event, where it went, its status, the payload, and each attempt: when, outcome and status code, the decision (retry at / final), the headers sent and the answer received, the sending fault applied, and the captured request when it went to a Hookloop endpoint. Secrets and signature headers are redacted.',
  changes: false,
  input: rowIdInput('delivery'),
  async run(ctx, { id }) {
    const d = ctx.stored('delivery', id, await ctx.source.deliveryDetail(id))
    const seen = new Set<string>()
    return {
      id: d.id,
      eventId: d.eventId,
      // The id the consumer knows the event by, and where it reads it (body.id, x-github-delivery …).
      consumerEventId: d.providerEventId,
      eventType: d.eventType,
      subscriptionId: d.subscriptionId,
      url: redactUrl(d.subscriptionUrl),
      status: d.status,
      payload: bodyOf(d.payloadBase64),
      faults: d.faults,
      clock: d.clock,
      attempts: d.attempts.map((a) => ({
        id: a.id,
        n: a.n,
        startedAt: momentOn(d.clock, a.startedAt),
        startedWallAt: iso(a.startedWallAt),
        durationMs: a.durationMs,
        outcome: a.outcome,
        statusCode: a.statusCode,
        decision: a.decision,
        nextAttemptAt: momentOn(d.clock, a.nextAttemptAt),
        error: a.error,
        requestHeaders: redactedHeaders(a.requestHeaders, seen),
        responseHeaders: redactedHeaders(a.responseHeaders, seen),
        responseBody: bodyOf(a.responseBodyBase64),
        fault: a.fault,
        requestId: a.requestId,
      })),
    }
  },
})
