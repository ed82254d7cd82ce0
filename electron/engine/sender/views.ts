import type { AppliedFault, AttemptView, DeliveryView } from '../../../shared/sender-events'
import type { SendFault } from '../../../shared/sender-faults'
import type { AttemptRow } from '../store/attempts'
import type { DeliveryRow } from '../store/deliveries'

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
    event_id: row.event_id,
    event_type: eventType,
    subscription_id: row.subscription_id,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_attempt_at: row.last_attempt_at,
    next_attempt_at: row.next_attempt_at,
    in_flight: row.in_flight === 1,
    faults: faults.faults,
    duplicate_of: faults.duplicate_of ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function attemptView(row: AttemptRow, eventId: string): AttemptView {
  return {
    id: row.id,
    delivery_id: row.delivery_id,
    event_id: eventId,
    n: row.n,
    started_at: row.started_at,
    duration_ms: row.duration_ms,
    outcome: row.outcome,
    status_code: row.status_code,
    decision: row.decision,
    next_attempt_at: row.next_attempt_at,
    faults: row.fault_json ? (JSON.parse(row.fault_json) as AppliedFault[]) : [],
    error: row.error,
    url: row.url,
  }
}
