import { transactional } from '../store'
import type { SenderParts } from './sender'
import type { DeliveryFaults } from './views'

/**
 * At start, what a crash left behind: unfinished attempts become `interrupted` and their
 * deliveries are retried now. Returns the ids of the deliveries recovered.
 */
export function createCrashRecovery({ db, deliveries, attempts, subscriptions }: SenderParts) {
  return transactional(db, (now: number) => {
    const recovered: number[] = []
    for (const row of deliveries.inFlight()) {
      const open = attempts.unfinished(row.id)
      if (open) attempts.markInterrupted(open.id, now)
      deliveries.recoverInFlight(row.id, now)
      recovered.push(row.id)
    }
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
}
