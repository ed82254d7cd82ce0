// Forward mode as the UI sees it: one leg to a target for the inspector (exactly what was sent and
// what came back, bodies as base64), and the short "did the app see it" line under a timeline mark.
import type { AppMark, ForwardLegView, HeaderPair, MarkTone } from '../../../shared/contract'
import { bodyStart } from './body-routes'
import { explainLeg, FORWARD_LEG_OUTCOMES, type ForwardLeg, type ForwardLegOutcome } from '../../../shared/receiver'

const pairs = (headers: readonly [string, string][]): HeaderPair[] => headers.map(([name, value]) => ({ name, value }))

export function legView(leg: ForwardLeg): ForwardLegView {
  return {
    id: leg.id,
    requestId: leg.requestId,
    kind: leg.kind,
    targetUrl: leg.targetUrl,
    sentAt: leg.sentAt,
    request: { method: leg.request.method, url: leg.request.url, headers: pairs(leg.request.headers), bodyBase64: bodyStart(leg.request.body), bodySize: leg.request.body?.byteLength ?? 0 },
    response: {
      status: leg.response.status,
      headers: pairs(leg.response.headers),
      bodyBase64: bodyStart(leg.response.body),
      bodySize: leg.response.bodySize,
      bodyTruncated: leg.response.bodyTruncated,
    },
    latencyMs: leg.latencyMs,
    outcome: leg.outcome,
    error: leg.error,
    summary: explainLeg(leg),
  }
}

/** The last leg of a request, in a few words, for the line under its timeline mark. */
export function appMark(last: { outcome: string; status: number | null; latencyMs: number | null }, legs: number): AppMark {
  const outcome: ForwardLegOutcome = (FORWARD_LEG_OUTCOMES as readonly string[]).includes(last.outcome) ? (last.outcome as ForwardLegOutcome) : 'error'
  const times = legs > 1 ? ` ×${legs}` : ''
  const { words, tone } = appWords(outcome, last.status, last.latencyMs)
  return { outcome, status: last.status, latencyMs: last.latencyMs, legs, tone, label: `app: ${words}${times}` }
}

function appWords(outcome: ForwardLegOutcome, status: number | null, latencyMs: number | null): { words: string; tone: MarkTone } {
  switch (outcome) {
    case 'answered': {
      const tone: MarkTone = status === null ? 'failed' : status >= 200 && status < 300 ? 'ok' : status >= 500 ? 'failed' : 'final'
      return { words: `${status ?? '?'}${latencyMs === null ? '' : ` in ${latencyMs} ms`}`, tone }
    }
    case 'refused':
    case 'unreachable':
    case 'reset':
    case 'error':
      return { words: 'down', tone: 'failed' }
    case 'timed_out':
      return { words: 'no answer in time', tone: 'failed' }
    case 'aborted':
      return { words: 'cut short', tone: 'pending' }
    default: {
      const never: never = outcome
      return never
    }
  }
}
