import { createAttemptStore, createDeliveryStore, createSimulationOwners, inTransaction, type SqlEngine } from '../store'
import { claimAbandoned, ownerGone } from './claim-owner'
import type { SenderParts } from './sender'
import type { DeliveryFaults } from './views'

/** Deliveries taken over from dead processes: attempts interrupted, and claims given back before an attempt started. */
export interface TakenOver {
  interrupted: number[]
  released: number[]
}

/**
 * What a dead process left behind: attempts whose claim it abandoned (claim-owner.ts) become
 * `interrupted` and their deliveries are retried now. At start, and then every so often for a
 * process beside it that died: an attempt another living process holds is its own. Returns the ids of the deliveries recovered. Awaited, on either store engine.
 * A simulation whose process is gone has ended: what it left continues on the wall clock.
 */
export function createCrashRecovery({ store, deliveries, subscriptions, wallNow }: SenderParts) {
  // In one transaction each: the claims read and taken over together. What they change is
  // dropped from the delivery cache (`deliveries`) after the commit.
  const takeOverOn = async (tx: SqlEngine, now: number): Promise<TakenOver> => {
    const rows = createDeliveryStore(tx)
    const attempts = createAttemptStore(tx)
    const simulations = createSimulationOwners(tx)
    const taken: TakenOver = { interrupted: [], released: [] }
    const wall = wallNow()
    for (const running of await simulations.running()) if (ownerGone(running.owner)) await simulations.end(running.id)
    for (const row of await rows.claimsInFlight()) {
      if (!claimAbandoned(row, wall)) continue
      const open = await attempts.unfinished(row.id)
      if (!open) {
        // Claimed, then the process died before the attempt started: nothing was sent or counted.
        if (await rows.releaseClaim(row.id, row.claimed_by, now)) taken.released.push(row.id)
        continue
      }
      if (!(await rows.recoverInFlight(row.id, row.claimed_by, now))) continue
      await attempts.markInterrupted(open.id, now)
      taken.interrupted.push(row.id)
    }
    return taken
  }
  const forget = (taken: TakenOver) => {
    for (const id of [...taken.interrupted, ...taken.released]) deliveries.forget(id)
    return taken
  }
  const takeOver = async (now: number): Promise<TakenOver> => forget(await inTransaction(store, (tx) => takeOverOn(tx, now)))

  const atStart = async (now: number): Promise<number[]> => {
    const rescheduled: number[] = []
    const taken = await inTransaction(store, async (tx) => {
      const recovered = await takeOverOn(tx, now)
      const rows = createDeliveryStore(tx)
      // Deliveries that were waiting (an `at-once` copy whose original already went, or a paused
      // subscription that is not paused any more) are scheduled now rather than forgotten.
      for (const sub of subscriptions.list()) {
        if (sub.paused) continue
        for (const id of await rows.waitingForResume(sub.id)) {
          const faults = (await rows.get(id))?.faults_json
          const waitsFor = faults ? (JSON.parse(faults) as DeliveryFaults).after_first_attempt_of : undefined
          if (waitsFor !== undefined && ((await rows.get(waitsFor))?.attempts ?? 0) === 0) continue
          await rows.reschedule(id, 'pending', now, now)
          rescheduled.push(id)
        }
      }
      return recovered
    })
    forget(taken)
    for (const id of rescheduled) deliveries.forget(id)
    return taken.interrupted
  }
  return { atStart, takeOver }
}
