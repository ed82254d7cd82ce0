// show_request: one captured request as the inspector shows it (host/detail-views.ts), with
// credentials blanked: secret-named headers and query parameters, and the signatures the verdict
// compared (explain_signature says what they were, shortened).
import { defineTool, rowIdInput } from './context'
import { bodyOf, iso, momentOn, redactedHeaders, redactQuery } from './answer-text'

const shownBytes = (base64: string): number => Buffer.byteLength(base64, 'base64')

export const showRequest = defineTool({
  name: 'show_request',
  title: 'Show a captured request',
  description:
    'One captured request by id (list_rows gives the ids): method, path, headers and body, the signature verdict, the schema verdict (the body against the schema its provider publishes: valid, invalid with the JSON pointer, what the schema expects, what came and the schema\u2019s words, or no schema and why), dedupe key and duplicate number, the fault a rule applied (explained), the answer Hookloop gave, and the forward legs to your app. Secrets and signature headers are redacted.',
  changes: false,
  input: rowIdInput('request'),
  async run(ctx, { id }) {
    const r = ctx.stored('request', id, await ctx.source.requestDetail(id))
    const seen = new Set<string>()
    const endpoint = r.endpointId === null ? null : (await ctx.source.endpoints()).find((e) => e.id === r.endpointId)
    return {
      id: r.id,
      endpoint: endpoint ? { id: endpoint.id, slug: endpoint.slug } : r.endpointId,
      receivedAt: momentOn(r.clock, r.receivedAt),
      storedAt: iso(r.storedAt),
      clock: r.clock,
      method: r.method,
      path: r.path,
      query: redactQuery(r.query),
      headers: redactedHeaders(r.headers, seen),
      body: bodyOf(r.bodyBase64),
      bodySize: r.bodySize,
      bodyTruncated: r.bodyTruncated,
      // A big body's start only (host/body-routes.ts): say so, so the start is not read as the whole.
      ...(shownBytes(r.bodyBase64) < r.bodyStoredBytes ? { bodyShown: `the first ${shownBytes(r.bodyBase64)} of ${r.bodyStoredBytes} stored bytes` } : {}),
      remoteAddress: r.remoteAddress,
      signature: { state: r.verify.state, reason: r.verify.reason ?? null, scheme: r.verify.scheme ?? null, detail: r.verify.detail ?? null },
      // Null: not judged (the endpoint names no provider, or the verdict is still to come).
      schema: r.schema,
      dedupeKey: r.dedupeKey,
      dedupeKeyFrom: r.dedupeKeyFrom ?? null,
      duplicateOf: r.duplicateOf,
      duplicateNumber: r.duplicateNumber,
      marks: r.marks,
      fault: r.fault,
      response: { status: r.response.status, headers: redactedHeaders(r.response.headers, seen), body: bodyOf(r.response.bodyBase64), ms: r.response.ms },
      attemptId: r.attemptId,
      forwardLegs: r.legs,
    }
  },
})
