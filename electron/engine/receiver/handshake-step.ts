// The `handshake` step: the answer to a provider's verification handshake, computed from the
// request (its query string or JSON body) and, where the provider wants an HMAC, the step's secret
// or else the endpoint's first one. A handshake the provider signs (Slack, Zoom) is answered only when its
// signature verifies, on an endpoint that has a secret: else anyone who finds the URL could pass
// the provider's check for it. Computed in the inspect stage, while the body is at hand; the
// answer is then written like a reply (steps.ts), so the request's row records it, with the
// handshake step as the fault applied.
import { challengeOf, HANDSHAKES } from '../../../shared/receiver'
import type { Step } from '../../../shared/receiver'
import type { VerifyResult } from '../../../shared/signatures'
import { handshakeAnswer } from '../providers'
import type { PreparedReply } from './steps'

type HandshakeStep = Extract<Step, { type: 'handshake' }>

export interface HandshakeInput {
  /** The raw query string, without '?'. */
  query: string
  body: Buffer
  /** The endpoint's secrets, newest first. */
  secrets: readonly string[]
  /** The request's signature verdict (null or absent when the endpoint verifies nothing). */
  verify?: VerifyResult | null
}

function text(status: number, message: string, step: HandshakeStep): PreparedReply {
  const body = Buffer.from(message, 'utf8')
  return { status, headers: [['content-type', 'text/plain; charset=utf-8'], ['content-length', String(body.length)]], body, fault: step }
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined
  try {
    return JSON.parse(body.toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

/** The answer the provider's docs require; a 400 / 500 naming the problem when there can be none. */
export function answerHandshake(step: HandshakeStep, input: HandshakeInput): PreparedReply {
  const definition = HANDSHAKES.entries[step.kind]
  const challenge = challengeOf(step.kind, { query: input.query, json: definition.challenge.in === 'body' ? parseJson(input.body) : undefined })
  if (!challenge.ok) return text(400, `not a ${definition.label} handshake: ${challenge.reason}`, step)
  if (definition.requestSigned && input.secrets.length > 0 && input.verify != null && !input.verify.valid) {
    return text(401, `signature failed (${input.verify.reason}): ${input.verify.detail} The ${definition.label} handshake is answered only when its signature verifies.`, step)
  }
  const secret = step.secret ?? input.secrets[0]
  if (definition.answerSecret !== null && secret === undefined) {
    return text(500, `cannot answer the ${definition.label} handshake: its answer is an HMAC keyed with ${definition.answerSecret}; give the endpoint that secret (or the rule's step a "secret")`, step)
  }
  const answer = handshakeAnswer(step.kind, challenge.challenge, secret ?? '')
  const headers: [string, string][] = [...Object.entries(answer.headers), ['content-length', String(answer.body.length)]]
  return { status: answer.status, headers, body: answer.body, fault: step }
}

/** The plan's handshake step, when it has one (it is final, so the last step). */
export function handshakeStepOf(steps: readonly Step[] | undefined): HandshakeStep | null {
  const last = steps?.[steps.length - 1]
  return last?.type === 'handshake' ? last : null
}
