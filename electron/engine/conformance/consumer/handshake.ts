// The handshake check: make a provider's verification handshake against someone's endpoint (the
// request as the provider sends it: electron/engine/providers/handshakes.ts) and grade the answer
// — the challenge or token echoed, the HMAC right, the content type the provider asks for, in the
// provider's time limit (shared/receiver/handshakes.ts). The grade is pure: observation in, check out.
import type { Dispatcher } from 'undici'
import type { Clock } from '../../../../shared/clock'
import type { CheckSeverity, ConsumerCheck, ProbeObservation } from '../../../../shared/conformance'
import { HANDSHAKES, type HandshakeKind } from '../../../../shared/receiver'
import { gradeHandshake, handshakeRequest, type HandshakeRequest } from '../../providers'
import { postOnce, type PostResult } from '../../sender'
import { CONSUMER_ADVICE } from './advice'
import { describeAnswer } from './grade'

export interface HandshakeAnswer {
  request: HandshakeRequest
  /** What came back; null status when nothing did (timeout, refused …). */
  observation: ProbeObservation
  headers: Record<string, string>
  body: Buffer
}

const EXCERPT_CHARS = 120

function observe(result: PostResult): ProbeObservation {
  const text = result.responseBody?.toString('utf8').replace(/\s+/g, ' ').trim() ?? ''
  return {
    outcome: result.outcome,
    status_code: result.statusCode,
    duration_ms: Math.round(result.durationMs),
    location: result.responseHeaders?.location ?? null,
    response_excerpt: result.error ?? (text ? (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text) : null),
    error: result.error,
  }
}

/** Sends the handshake's request and waits at most the provider's time limit (on the clock). */
export async function makeHandshake(kind: HandshakeKind, input: { url: string; secret: string; clock: Clock; dispatcher: Dispatcher }): Promise<HandshakeAnswer> {
  const request = handshakeRequest(kind, { url: input.url, secret: input.secret, now: input.clock.now() })
  const headers = { ...request.headers, 'user-agent': 'Hookloop-Check/0.1' }
  const result = await postOnce({ url: request.url, method: request.method, headers, body: request.body, clock: input.clock, timeoutMs: HANDSHAKES.entries[kind].timeLimitMs, followRedirects: 0, maxResponseBytes: 4096, dispatcher: input.dispatcher })
  return { request, observation: observe(result), headers: result.responseHeaders ?? {}, body: result.responseBody ?? Buffer.alloc(0) }
}

function verdict(kind: HandshakeKind, severity: CheckSeverity, detail: string, fix: string | null, probe: ProbeObservation): ConsumerCheck {
  const advice = CONSUMER_ADVICE.handshake_answered
  return { id: 'handshake_answered', title: `Answers the ${HANDSHAKES.entries[kind].label} handshake`, passed: severity !== 'fail', severity, detail, why: advice.why, fix: fix ?? advice.fix, probes: [probe] }
}

/** Grades an answer: each failure names what is wrong and what the provider needs instead. */
export function gradeHandshakeAnswer(answer: HandshakeAnswer, secret: string): ConsumerCheck {
  const { request, observation: p } = answer
  const kind = request.kind
  const h = HANDSHAKES.entries[kind]
  const required = `${h.provider} needs ${h.answer}`
  if (p.status_code === null) {
    const what = p.outcome === 'timeout' ? `no answer within ${h.timeLimitMs} ms: ${h.provider} gives up after ${h.timeLimitMs / 1000} s` : describeAnswer(p)
    return verdict(kind, 'fail', `the ${h.label} request got ${what}`, `Answer the handshake at once, before any slow work; ${required}.`, p)
  }
  const graded = gradeHandshake(request, { status: p.status_code, headers: answer.headers, body: answer.body }, secret)
  const took = `in ${p.duration_ms} ms`
  if (!graded.ok) return verdict(kind, 'fail', `${graded.detail} (${describeAnswer(p)})`, `${required}.`, p)
  if (p.duration_ms > h.timeLimitMs) return verdict(kind, 'fail', `${graded.detail}, but ${took}: ${h.provider} waits ${h.timeLimitMs} ms at most`, `Answer the handshake at once; ${required}.`, p)
  const type = (answer.headers['content-type'] ?? '').toLowerCase()
  if (h.answerType !== null && !type.startsWith(h.answerType)) {
    // Graph's and Dropbox's content type is graded with the answer itself; a JSON answer sent
    // under another type is usually still read, so it only warns.
    return verdict(kind, 'warn', `${graded.detail} ${took}, but as ${type || 'no content type'}; ${h.provider}'s docs ask for ${h.answerType}`, `Send the answer with Content-Type: ${h.answerType}.`, p)
  }
  return verdict(kind, 'pass', `${graded.detail} ${took}`, null, p)
}
