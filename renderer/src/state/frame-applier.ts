// Engine events reach the store at most once per animation frame: what arrives between two frames
// is merged first, as the host merges what it sends.
import type { EventMessage } from '../../../shared/contract'
import { createEventBatcher } from '../../../shared/contract'

/** What a frame applier waits on (each returns its cancel): the next frame, and a timer for when frames stop coming. */
export interface FrameTimers {
  frame(run: () => void): () => void
  timeout(run: () => void, ms: number): () => void
}

const browserTimers: FrameTimers = {
  frame: (run) => cancelAnimationFrame.bind(window, requestAnimationFrame(run)),
  timeout: (run, ms) => clearTimeout.bind(window, setTimeout(run, ms)),
}

/**
 * Collects event batches, merged as the host merges them (each row once, latest wins; each state
 * event once), and applies them on the next animation frame — or after maxWaitMs when no frame
 * comes: a hidden window gets none, and its queue must not grow without bound.
 */
export function createFrameApplier(apply: (batch: EventMessage[]) => void, timers: FrameTimers = browserTimers, maxWaitMs = 250): (batch: EventMessage[]) => void {
  const queue = createEventBatcher()
  let cancel: (() => void)[] = []
  const flush = () => {
    for (const stop of cancel) stop()
    cancel = []
    const batch = queue.drain()
    if (batch.length > 0) apply(batch)
  }
  return (batch) => {
    for (const event of batch) queue.add(event)
    if (cancel.length === 0) cancel = [timers.frame(flush), timers.timeout(flush, maxWaitMs)]
  }
}
