// What the sender tells the rest of Hookloop, in the order it happens: a delivery is created, each
// attempt starts and finishes, and the delivery's state changes. Views are plain JSON.
import type { SendFault } from './sender-faults'
import type { AttemptDecisionState, DeliveryStatus } from './delivery'


export interface DeliveryView {
  id: number
  event_id: string
  event_type: string
  subscription_id: string
  status: DeliveryStatus
  attempts: number
  last_status_code: number | null
  last_attempt_at: number | null
  next_attempt_at: number | null
  in_flight: boolean
  /** Faults asked for when the event was published (and `duplicate_of` for a duplicate's copy). */
  faults: SendFault[]
  duplicate_of: number | null
  created_at: number
  updated_at: number
}

/** A fault as applied to one attempt, with what it changed. */
export interface AppliedFault {
  type: SendFault['type']
  detail: string
}

export interface AttemptView {
  id: number
  delivery_id: number
  event_id: string
  n: number
  started_at: number
  duration_ms: number | null
  /** http_<code>, timeout, connection_refused, reset, dns, connection_error, dropped, interrupted; in_flight while running. */
  outcome: string
  status_code: number | null
  decision: AttemptDecisionState
  next_attempt_at: number | null
  faults: AppliedFault[]
  error: string | null
  /** Where it went (a loop-mode attempt names the endpoint's URL at the time). */
  url: string | null
}

export interface SenderEventMap {
  'delivery.created': DeliveryView
  'delivery.updated': DeliveryView
  'attempt.started': AttemptView
  'attempt.finished': AttemptView
}
export type SenderEventType = keyof SenderEventMap
