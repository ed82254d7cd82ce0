import type { Scheduler } from '../scheduler'
import { BadRowError } from '../store'
import type { AttemptRunner } from './attempt-runner'

// The delivery pump: takes what the scheduler finds due and runs an attempt for each, at most
// `concurrency` HTTP exchanges at once. `inFlight` counts attempts not yet recorded; `requests`
// counts HTTP exchanges, which is what the concurrency limit is about.

/** `paused`: while it says so, no attempt starts (a team's store out of reach); pump() again once it is over. */
export function createPump(scheduler: Scheduler, runner: Pick<AttemptRunner, 'run'>, concurrency: number, paused: () => boolean = () => false) {
  let inFlight = 0
  let requests = 0
  let running = false
  let idleWaiters: Array<() => void> = []
  let drainWaiters: Array<() => void> = []

  function pump(): void {
    if (!running || paused()) return
    while (requests < concurrency) {
      const due = scheduler.takeDue(concurrency - requests)
      if (due.length === 0) break
      for (const entry of due) {
        inFlight++
        requests++
        let slotHeld = true
        const freeSlot = () => {
          if (!slotHeld) return
          slotHeld = false
          requests--
          pump()
        }
        runner
          .run(entry, freeSlot)
          .catch((error: unknown) => {
            // A subscription whose row does not parse is set aside, not a crash: the delivery waits
            // until the row is repaired (`hookloop doctor --repair`) and the engine starts again.
            if (error instanceof BadRowError) return console.error(`hookloop sender: delivery ${entry.id} waits: ${error.message}; run \`hookloop doctor\``)
            // A bug, not a delivery outcome: say so loudly, keep the other deliveries going.
            console.error(`hookloop sender: attempt for delivery ${entry.id} failed to run:`, error)
          })
          .finally(() => {
            inFlight--
            if (inFlight === 0 && drainWaiters.length > 0) {
              const waiters = drainWaiters
              drainWaiters = []
              for (const resolve of waiters) resolve()
            }
            freeSlot()
            pump()
            checkIdle()
          })
      }
    }
    checkIdle()
  }

  function checkIdle(): void {
    if (idleWaiters.length === 0 || inFlight > 0 || scheduler.refilling() || scheduler.nextDueAt() !== undefined) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  return {
    pump,
    running: () => running,
    start(): void {
      running = true
      scheduler.start()
      pump()
    },
    /** Stops starting attempts and waits for the ones in flight to be recorded. */
    async stop(): Promise<void> {
      running = false
      scheduler.stop()
      while (inFlight > 0) await new Promise<void>((resolve) => drainWaiters.push(resolve))
    },
    settled(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve)
        checkIdle()
      })
    },
    inFlight: (): number => inFlight,
  }
}
