import type { AppliedFault, AttemptView, DeliveryView, SendFault } from '../../../shared/sender'
import type { AttemptRow, DeliveryRow } from '../store'

/** What deliveries.faults_json holds. */
export interface DeliveryFaults {
  faults: SendFault[]
  /** Set on the copy a `duplicate` fault made: the delivery it duplicates. */
  duplicate_of?: number
  /** `at-once` copies wait for the first attempt of this delivery. */
  after_first_attempt_of?: number
}

export function parseDeliveryFaults(json: string | null): DeliveryFaults {
  if (!json) return { faults: [] }
  return JSON.parse(json) as DeliveryFaults
}

export function deliveryView(row: DeliveryRow, eventType: string): DeliveryView {
  const faults = parseDeliveryFaults(row.faults_json)
  return {
    id: row.id,
    eventId: row.event_id,
    eventType,
    subscriptionId: row.subscription_id,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    inFlight: row.in_flight === 1,
    faults: faults.faults,
    duplicateOf: faults.duplicate_of ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function attemptView(row: AttemptRow, eventId: string): AttemptView {
  return {
    id: row.id,
    deliveryId: row.delivery_id,
    eventId,
    n: row.n,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    outcome: row.outcome,
    statusCode: row.status_code,
    decision: row.decision,
    nextAttemptAt: row.next_attempt_at,
    faults: row.fault_json ? (JSON.parse(row.fault_json) as AppliedFault[]) : [],
    error: row.error,
    url: row.url,
  }
}
