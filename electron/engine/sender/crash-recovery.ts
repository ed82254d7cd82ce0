import { createSimulationStatements, transactional } from '../store'
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
 * process beside it that died: an attempt another living process holds is its own. Returns the ids of the deliveries recovered.
 * A simulation whose process is gone has ended: what it left continues on the wall clock.
 */
export function createCrashRecovery({ db, deliveries, attempts, subscriptions, wallNow }: SenderParts) {
  const simulations = createSimulationStatements(db)
  const takeOver = transactional(db, (now: number): TakenOver => {
    const taken: TakenOver = { interrupted: [], released: [] }
    const wall = wallNow()
    for (const running of simulations.running()) if (ownerGone(running.owner)) simulations.end(running.id)
    for (const row of deliveries.claimsInFlight()) {
      if (!claimAbandoned(row, wall)) continue
      const open = attempts.unfinished(row.id)
      if (!open) {
        // Claimed, then the process died before the attempt started: nothing was sent or counted.
        if (deliveries.releaseClaim(row.id, row.claimed_by, now)) taken.released.push(row.id)
        continue
      }
      if (!deliveries.recoverInFlight(row.id, row.claimed_by, now)) continue
      attempts.markInterrupted(open.id, now)
      taken.interrupted.push(row.id)
    }
    return taken
  })
  const atStart = transactional(db, (now: number): number[] => {
    const recovered = takeOver(now).interrupted
    // Deliveries that were waiting (an `at-once` copy whose original already went, or a paused
    // subscription that is not paused any more) are scheduled now rather than forgotten.
    for (const sub of subscriptions.list()) {
      if (sub.paused) continue
      for (const id of deliveries.waitingForResume(sub.id)) {
        const faults = deliveries.get(id)?.faults_json
        const waitsFor = faults ? (JSON.parse(faults) as DeliveryFaults).after_first_attempt_of : undefined
        if (waitsFor !== undefined && (deliveries.get(waitsFor)?.attempts ?? 0) === 0) continue
        deliveries.reschedule(id, 'pending', now, now)
      }
    }
    return recovered
  })
  return { atStart, takeOver }
}
