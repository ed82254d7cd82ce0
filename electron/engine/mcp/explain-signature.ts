// explain_signature: why a captured request's signature passed or failed. The stored verdict is
// what the receiver decided on arrival; the check is run again (receiver/verify-request.ts, the
// receiver's own code) on the stored bytes at the time of arrival with the endpoint's secrets as
// they are now, so an agent sees whether a changed secret or scheme would have let it through.
import type { IncomingHttpHeaders } from 'node:http'
import { z } from 'zod'
import { SCHEMES, type VerifyResult } from '../../../shared/signatures'
import { secretHint } from '../host'
import { verifyRequest } from '../receiver'
import { defineTool, ToolError } from './context'
import { iso, momentOn } from './answer-text'
import { signatureFix } from './signature-fix'

/** A signature shortened so two can be compared by eye, never handed over whole (it would authenticate a replay). */
const shortened = (signature: string | undefined): string | null => (signature === undefined ? null : secretHint(signature))

function headersOf(json: string | null): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {}
  if (!json) return headers
  const parsed = JSON.parse(json) as unknown
  const pairs: [string, unknown][] = Array.isArray(parsed) ? (parsed as [string, unknown][]) : Object.entries(parsed as Record<string, unknown>)
  for (const [rawName, value] of pairs) {
    const name = rawName.toLowerCase()
    for (const v of Array.isArray(value) ? value : [value]) {
      const had = headers[name]
      headers[name] = had === undefined ? String(v) : Array.isArray(had) ? [...had, String(v)] : [had, String(v)]
    }
  }
  return headers
}

function verdictOf(result: VerifyResult) {
  return {
    valid: result.valid,
    reason: result.reason,
    detail: result.detail,
    computed: shortened(result.expected),
    received: shortened(result.received),
    ...(result.skewSeconds === undefined ? {} : { skewSeconds: result.skewSeconds }),
    ...(result.secretIndex === undefined ? {} : { secretIndex: result.secretIndex }),
  }
}

export const explainSignature = defineTool({
  name: 'explain_signature',
  title: "Explain a request's signature verdict",
  description:
    "Why a captured request's signature passed or failed: the verdict stored on arrival (reason, detail, the signature computed vs the one received, shortened), the endpoint's scheme and timestamp tolerance, the check run again now with the endpoint's current secrets, and the fix.",
  changes: false,
  input: { requestId: z.number().int().positive().describe('captured request id') },
  async run(ctx, { requestId }) {
    const { reads } = ctx.source.local('explain_signature')
    const r = ctx.stored('request', requestId, await reads.request(requestId))
    const endpoint = r.endpoint_id === null ? undefined : await reads.endpoint(r.endpoint_id)
    if (!endpoint) throw new ToolError(`request #${requestId} arrived at no endpoint that still exists, so there is no signature check to explain`)
    const stored = r.verify_json ? (JSON.parse(r.verify_json) as VerifyResult) : null
    if (!endpoint.scheme) {
      return {
        requestId,
        endpoint: { id: endpoint.id, slug: endpoint.slug, scheme: null },
        stored: stored && verdictOf(stored),
        fix: "The endpoint checks no signature: give it the provider's scheme and signing secret to verify what arrives.",
      }
    }
    const meta = SCHEMES[endpoint.scheme]
    const url = `${await ctx.endpointUrl(endpoint.slug)}${r.query ? `?${r.query}` : ''}`
    const now = verifyRequest(endpoint, { body: r.body ?? Buffer.alloc(0), headers: headersOf(r.headers_json), url, nowMs: r.received_at })
    const reason = stored?.reason ?? now.reason
    // On the request's clock: a simulation's for a request one of its attempts made (docs/time.md).
    const clock = (await ctx.source.requestDetail(requestId))?.clock ?? { kind: 'wall' as const }
    return {
      requestId,
      receivedAt: momentOn(clock, r.received_at),
      ...(clock.kind === 'simulated' && r.stored_at !== null ? { storedAt: iso(r.stored_at) } : {}),
      endpoint: {
        id: endpoint.id,
        slug: endpoint.slug,
        scheme: endpoint.scheme,
        schemeLabel: meta.label,
        signatureHeader: meta.signatureHeader ?? endpoint.custom?.header ?? null,
        toleranceSeconds: endpoint.toleranceSeconds ?? endpoint.custom?.toleranceSeconds ?? meta.toleranceSeconds,
        secretHints: endpoint.secrets.map(secretHint),
      },
      stored: stored ? verdictOf(stored) : null,
      recheckedWithCurrentSecrets: verdictOf(now),
      ...(r.body_truncated ? { note: 'The body was stored truncated (past the endpoint body limit), so the recheck cannot match.' } : {}),
      ...(meta.needsUrl ? { urlNote: `${meta.label} signs the public URL the provider called; the recheck used ${url}.` } : {}),
      fix: signatureFix(reason, endpoint.scheme),
    }
  },
})
