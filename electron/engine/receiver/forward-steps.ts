// The `forward` and `forward-copy` steps on a request being answered: the glue between the
// step runner (steps.ts) and the forwarder (forward.ts). The sender's answer is the target's
// answer, relayed as it arrives; when the target fails, 502 ("your app is down") or 504.
import { explainLeg, type ForwardCopyStep, type ForwardStep } from '../../../shared/forward'
import type { ForwardSource, Forwarder } from './forward'
import { defaultReply, finished, gone, holdUntilClosed, type ForwardHooks, type StepResult, type StepRun } from './steps'

export function forwardHooks(forwarder: Forwarder, source: ForwardSource, bodyLimit: number): ForwardHooks {
  return {
    async final(step: ForwardStep, run: StepRun): Promise<StepResult> {
      const { leg, relayed } = await forwarder.send(source, step, 'forward', {
        sink: { res: run.res, signal: run.signal },
        bodyLimit,
        ...(run.attemptKey === undefined ? {} : { attemptKey: run.attemptKey }),
      })
      if (relayed) {
        const ok = leg.outcome === 'answered' && (await finished(run.res))
        const seen = { status: leg.response.status, headers: leg.response.headers, body: leg.response.body === null ? null : Buffer.from(leg.response.body) }
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
      const sent = forwarder.send(source, step, 'forward-copy', { bodyLimit, ...(run.attemptKey === undefined ? {} : { attemptKey: run.attemptKey }) })
      if (step.wait) await sent
    },
  }
}
