// A request at a breakpoint, between its record and its answer: its row is committed first (a
// process that dies mid-hold loses nothing), then it waits for a person's decision, its limit, or
// its client to leave; then it goes on as decided. What the hold did is the capture's
// `fault.hold`; the row's headers and body stay as received, so the timeline shows the original
// beside the edit.
import type { Breakpoint, Capture, Endpoint, ForwardLeg, HandAnswer, HeldRequest, HoldDecision, HoldEdit, HoldRecord, ReceiverEvent, Step } from '../../../shared/receiver'
import { explainSteps } from '../../../shared/receiver'
import type { Clock } from '../../../shared/clock'
import type { Breakpoints } from './breakpoints'
import { resignHeaders, setHeaders } from './resend'
import { gone, sendPrepared, type PreparedReply, type StepResult, type StepRun } from './steps'

export interface HoldDeps {
  breakpoints: Breakpoints
  wallClock: Clock
  emit(event: ReceiverEvent): void
}

/** What the request is once its hold ends: the headers and body that go on (edited or not). */
export interface Released {
  headers: [string, string][]
  body: Buffer
  /** The answer's status, when an edit changed it. */
  status: number | null
}

export interface HoldContext {
  capture: Capture
  breakpoint: Breakpoint
  endpoint: Endpoint
  endpointSlug: string
  /** The URL the request was sent to (for URL-signed schemes' re-sign). */
  url: string
  body: Buffer
  prepared: PreparedReply | null
  steps: Step[] | null
  /** The endpoint's answer as usual, to the request as released; `answerHold` (forward mode) holds your app's answer too. */
  goOn(released: Released, answerHold: AnswerHold | null): Promise<StepResult>
}

/** Holds your app's answer on its way back; resolves with what the sender gets, or null to drop the connection. */
export type AnswerHold = (leg: ForwardLeg) => Promise<PreparedReply | null>

// Hop-by-hop and framing headers of the app's answer: the answer is written again whole, with its own length.
const REFRAMED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive'])

function answerHolder(deps: HoldDeps, ends: AbortSignal, ctx: HoldContext, record: HoldRecord): AnswerHold {
  return async (leg) => {
    const headers = leg.response.headers.filter(([n]) => !REFRAMED.has(n.toLowerCase()))
    const body = Buffer.from(leg.response.body ?? new Uint8Array(0))
    const request = { ...heldRequest(deps, ctx), phase: 'answer' as const, status: leg.response.status, headers, body: body.toString('utf8'), bodySize: body.length, plan: `answer ${leg.response.status ?? '?'} as your app did`, canResign: false }
    const outcome = await deps.breakpoints.hold(request, true, ends)
    const answerHold: NonNullable<HoldRecord['answerHold']> = { heldMs: deps.wallClock.now() - request.heldAt, end: 'released' }
    let reply: PreparedReply | null = null
    const asApp = (): PreparedReply => ({ status: leg.response.status ?? 502, headers: [...headers, ['content-length', String(body.length)]], body, fault: null })
    if (outcome.kind === 'client_gone') answerHold.end = 'client_gone'
    else if (outcome.kind === 'expired') {
      answerHold.end = 'expired'
      answerHold.expiry = outcome.expiry
      reply = outcome.expiry.action === 'release' ? asApp() : handAnswer({ status: outcome.expiry.status })
    } else {
      const decision = outcome.decision
      if (decision.action === 'drop') answerHold.end = 'dropped'
      else if (decision.action === 'answer') {
        answerHold.end = 'answered'
        answerHold.answer = decision.answer
        reply = handAnswer(decision.answer)
      } else if (decision.edit) {
        const edit = decision.edit
        const removed = new Set((edit.removeHeaders ?? []).map((n) => n.toLowerCase()))
        const edited = setHeaders(headers.filter(([n]) => !removed.has(n.toLowerCase())), edit.headers ?? []).filter(([n]) => !REFRAMED.has(n.toLowerCase()))
        const editedBody = edit.body === undefined ? body : Buffer.from(edit.body, 'utf8')
        answerHold.end = 'edited'
        answerHold.edit = { headers: edited, body: edit.body ?? null, status: edit.status ?? null, resigned: false }
        reply = { status: edit.status ?? leg.response.status ?? 502, headers: [...edited, ['content-length', String(editedBody.length)]], body: editedBody, fault: null }
      } else reply = asApp()
    }
    record.answerHold = answerHold
    deps.emit({ type: 'breakpoint.released', requestId: ctx.capture.id, endpointId: ctx.capture.endpointId, hold: record })
    return reply
  }
}

function heldRequest(deps: HoldDeps, ctx: HoldContext): HeldRequest {
  const { capture, breakpoint, endpoint } = ctx
  const heldAt = deps.wallClock.now()
  return {
    phase: 'request',
    status: null,
    requestId: capture.id,
    breakpointId: breakpoint.id,
    endpointId: capture.endpointId,
    endpointSlug: ctx.endpointSlug,
    method: capture.method,
    path: capture.path,
    query: capture.query,
    headers: capture.headers,
    body: ctx.body.toString('utf8'),
    bodySize: capture.bodySize,
    heldAt,
    expiresAt: heldAt + deps.breakpoints.limitFor(breakpoint, endpoint.scheme),
    onExpiry: breakpoint.onExpiry,
    plan: ctx.steps ? explainSteps(ctx.steps) : 'reply 200 OK',
    canResign: endpoint.scheme !== null && endpoint.secrets.length > 0,
  }
}

function edited(ctx: HoldContext, edit: HoldEdit): Released {
  const removed = new Set((edit.removeHeaders ?? []).map((n) => n.toLowerCase()))
  let headers = setHeaders(ctx.capture.headers.filter(([n]) => !removed.has(n.toLowerCase())), edit.headers ?? [])
  const body = edit.body === undefined ? ctx.body : Buffer.from(edit.body, 'utf8')
  // The length the body now has: a content-length left from the original would cut or stall it.
  if (edit.body !== undefined && headers.some(([n]) => n.toLowerCase() === 'content-length')) headers = setHeaders(headers, [['content-length', String(body.length)]])
  if (edit.resign) headers = resignHeaders(ctx.endpoint, headers, body, ctx.url)
  return { headers, body, status: edit.status ?? null }
}

function handAnswer(answer: HandAnswer): PreparedReply {
  const body = Buffer.from(answer.body ?? '', 'utf8')
  // The length is the body's own, whatever was typed: a wrong one would cut or stall the answer.
  const headers = (answer.headers ?? []).filter(([n]) => n.toLowerCase() !== 'content-length')
  if (body.length > 0 && !headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['content-type', 'text/plain; charset=utf-8'])
  headers.push(['content-length', String(body.length)])
  return { status: answer.status, headers, body, fault: null }
}

/** Holds the request, then answers it as decided; sets `capture.fault.hold`. */
export async function holdThenAnswer(deps: HoldDeps, run: StepRun, ends: AbortSignal, ctx: HoldContext): Promise<StepResult> {
  // Recorded before it is held: nothing is lost if the process dies while a person looks.
  await run.beforeAnswer()
  const request = heldRequest(deps, ctx)
  const outcome = await deps.breakpoints.hold(request, ctx.prepared !== null, ends)
  const heldMs = deps.wallClock.now() - request.heldAt
  const hold: HoldRecord = { breakpointId: ctx.breakpoint.id, heldMs, end: 'released' }
  let decision: HoldDecision
  switch (outcome.kind) {
    case 'client_gone':
      hold.end = 'client_gone'
      decision = { action: 'drop' }
      break
    case 'expired':
      hold.end = 'expired'
      hold.expiry = outcome.expiry
      decision = outcome.expiry.action === 'release' ? { action: 'release' } : { action: 'answer', answer: { status: outcome.expiry.status } }
      break
    case 'decided':
      decision = outcome.decision
      break
    default: {
      const never: never = outcome
      return never
    }
  }
  let released: Released = { headers: ctx.capture.headers, body: ctx.body, status: null }
  if (outcome.kind === 'decided') {
    if (decision.action === 'release' && decision.edit) {
      let resigned = decision.edit.resign === true
      try {
        released = edited(ctx, decision.edit)
      } catch {
        // A secret the scheme cannot sign with (checked only when signing): the edit goes on with
        // the old signature, and the record says it was not re-signed.
        released = edited(ctx, { ...decision.edit, resign: false })
        resigned = false
      }
      const edit = decision.edit
      hold.end = 'edited'
      hold.edit = { headers: released.headers, body: edit.body ?? null, status: edit.status ?? null, resigned }
    } else if (decision.action === 'answer') {
      hold.end = 'answered'
      hold.answer = decision.answer
    } else if (decision.action === 'drop') {
      hold.end = 'dropped'
    }
  }
  ctx.capture.fault = { ...(ctx.capture.fault ?? { outcome: 'pending', step: null, steps: ctx.steps }), hold }
  deps.emit({ type: 'breakpoint.released', requestId: ctx.capture.id, endpointId: ctx.capture.endpointId, hold })
  switch (decision.action) {
    case 'drop':
      if (outcome.kind === 'client_gone') return gone()
      run.socket.destroy()
      return { outcome: 'closed', status: null, headers: null, body: null, fault: null }
    case 'answer':
      return sendPrepared(run, handAnswer(decision.answer))
    case 'release':
      return ctx.goOn(released, ctx.breakpoint.holdAnswer ? answerHolder(deps, ends, ctx, hold) : null)
    default: {
      const never: never = decision
      return never
    }
  }
}
