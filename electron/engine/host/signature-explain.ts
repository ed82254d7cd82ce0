// Why a captured request's signature passed or failed, as `hookloop mcp`'s explain_signature and the
// control server's `request.explainSignature` both say it (one code for both). The stored verdict
// is what the receiver decided on arrival; the check is run again (receiver/verify-request.ts, the
// receiver's own code) on the stored bytes at the time of arrival with the endpoint's secrets as
// they are now, so an agent sees whether a changed secret or scheme would have let it through. The
// answer carries no secret: signatures shortened, secrets as hints.
import type { IncomingHttpHeaders } from 'node:http'
import { formatRunOffset } from '../../../shared/clock'
import type { RowClock, SignatureExplanation } from '../../../shared/contract'
import { SCHEMES, type VerifyResult } from '../../../shared/signatures'
import { verifyRequest } from '../receiver'
import type { InspectorReads } from '../store'
import { secretHint } from './detail-views'
import { signatureFix } from './signature-fix'

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

/** A time on its row's clock: a wall time as ISO, a simulated one as time into its run (docs/time.md). */
export function momentOn(clock: RowClock, at: number | null): string | null {
  if (at === null) return null
  return clock.kind === 'wall' ? iso(at) : `${formatRunOffset(at - clock.startedAt)} into the run (simulated)`
}

/** A request that has no signature check to explain: the sentence says why. */
export class SignatureExplainError extends Error {
  override name = 'SignatureExplainError'
}

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

export interface ExplainSources {
  /** The store's raw rows, with the endpoint's signing secrets. */
  reads: InspectorReads
  /** An endpoint's URL at the receiver (schemes that sign the URL are checked against it). */
  endpointUrl(slug: string): Promise<string> | string
  /** The clock the request's times are on (a simulation's, for a request one of its attempts made). */
  clockOf(requestId: number): Promise<RowClock>
}

/** The explanation, or null when there is no request by that id. */
export async function explainSignature(sources: ExplainSources, requestId: number): Promise<SignatureExplanation | null> {
  const { reads } = sources
  const r = await reads.request(requestId)
  if (!r) return null
  const endpoint = r.endpoint_id === null ? undefined : await reads.endpoint(r.endpoint_id)
  if (!endpoint) throw new SignatureExplainError(`request #${requestId} arrived at no endpoint that still exists, so there is no signature check to explain`)
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
  const url = `${await sources.endpointUrl(endpoint.slug)}${r.query ? `?${r.query}` : ''}`
  const now = verifyRequest(endpoint, { body: r.body ?? Buffer.alloc(0), headers: headersOf(r.headers_json), url, nowMs: r.received_at })
  const reason = stored?.reason ?? now.reason
  const clock = await sources.clockOf(requestId)
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
}
