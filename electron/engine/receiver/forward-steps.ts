// The `forward` and `forward-copy` steps on a request being answered: the glue between the
// step runner (steps.ts) and the forwarder (forward.ts). The sender's answer is the target's
// answer, relayed as it arrives; when the target fails, 502 ("your app is down") or 504.
import { explainLeg, type ForwardCopyStep, type ForwardStep } from '../../../shared/receiver'
import type { BodyBudget } from './body-budget'
import type { ForwardSource, Forwarder } from './forward'
import { defaultReply, finished, gone, holdUntilClosed, sendPrepared, type ForwardHooks, type StepResult, type StepRun } from './steps'
import type { AnswerHold } from './hold'

/** Default most background copies in flight at once, the receiver's whole. */
export const DEFAULT_MAX_BACKGROUND_COPIES = 256

/**
 * What background copies may hold: a copy keeps its body after the sender is answered, so each
 * counts against the receiver's body budget and a number of copies in flight. Past either, the
 * copy is sent in the foreground (the sender waits for it, as with wait: true): a flood toward a
 * slow app is pushed back onto the senders' connections instead of growing the heap.
 */
export interface CopyBudget {
  budget: BodyBudget
  max: number
  running: number
}

export function createCopyBudget(budget: BodyBudget, max = DEFAULT_MAX_BACKGROUND_COPIES): CopyBudget {
  return { budget, max, running: 0 }
}

/** The leg's answer body as a Buffer over the same bytes (no copy: neither side changes them). */
const asBuffer = (bytes: Uint8Array | null): Buffer | null => (bytes === null ? null : Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))

/** `answerHold`: a breakpoint holds your app's answer before it goes back (hold.ts); it is then not relayed as it arrives. */
export function forwardHooks(forwarder: Forwarder, source: ForwardSource, bodyLimit: number, copies: CopyBudget, answerHold: AnswerHold | null = null): ForwardHooks {
  return {
    async final(step: ForwardStep, run: StepRun): Promise<StepResult> {
      const { leg, relayed } = await forwarder.send(source, step, 'forward', {
        ...(answerHold ? {} : { sink: { res: run.res, signal: run.signal } }),
        bodyLimit,
        ...(run.attemptKey === undefined ? {} : { attemptKey: run.attemptKey }),
      })
      if (answerHold && leg.outcome === 'answered' && !run.aborted()) {
        const reply = await answerHold(leg)
        if (reply === null) {
          if (run.aborted()) return gone(step)
          run.socket.destroy()
          return { outcome: 'closed', status: null, headers: null, body: null, fault: step }
        }
        return sendPrepared(run, { ...reply, fault: step })
      }
      if (relayed) {
        const ok = leg.outcome === 'answered' && (await finished(run.res))
        const seen = { status: leg.response.status, headers: leg.response.headers, body: asBuffer(leg.response.body) }
        if (ok) return { outcome: 'replied', ...seen, fault: step }
        // The head went out, then the app's answer broke off: the sender saw its connection end.
        return { ...seen, outcome: leg.outcome === 'answered' ? 'client_gone' : 'reset', fault: step }
      }
      if (run.signal.aborted) return gone(step)
      if (leg.outcome === 'timed_out' && step.on_timeout === 'hold') {
        await holdUntilClosed(run)
        return { outcome: 'timed_out', status: null, headers: null, body: null, fault: step }
      }
      const status = leg.outcome === 'timed_out' ? 504 : 502
      const result = await defaultReply(run, status, `${explainLeg(leg)} (${leg.request.url})`)
      return { ...result, fault: step }
    },
    async copy(step: ForwardCopyStep, run: StepRun): Promise<void> {
      const share = copies.budget.open()
      const background = !step.wait && copies.running < copies.max && share.take(source.body.length)
      if (background) copies.running++
      const sent = forwarder.send(source, step, 'forward-copy', { bodyLimit, ...(run.attemptKey === undefined ? {} : { attemptKey: run.attemptKey }) })
      void sent.finally(() => {
        share.release()
        if (background) copies.running--
      })
      if (!background) await sent
    },
  }
}
