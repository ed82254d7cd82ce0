// What the sender tells the rest of Hookloop, in the order it happens: a delivery is created, each
// attempt starts and finishes, and the delivery's state changes. Views are plain JSON, camelCase
// like everything in process and on the wire (docs/naming.md).
import type { SendFault } from './faults'
import type { AttemptDecisionState, DeliveryStatus } from './delivery'

export interface DeliveryView {
  id: number
  eventId: string
  eventType: string
  subscriptionId: string
  status: DeliveryStatus
  attempts: number
  lastStatusCode: number | null
  lastAttemptAt: number | null
  nextAttemptAt: number | null
  inFlight: boolean
  /** Faults asked for when the event was published (and `duplicateOf` for a duplicate's copy). */
  faults: SendFault[]
  duplicateOf: number | null
  createdAt: number
  updatedAt: number
}

/** A fault as applied to one attempt, with what it changed. */
export interface AppliedFault {
  type: SendFault['type']
  detail: string
}

export interface AttemptView {
  id: number
  deliveryId: number
  eventId: string
  n: number
  startedAt: number
  durationMs: number | null
  /** http_<code>, timeout, connection_refused, reset, dns, connection_error, dropped, interrupted; in_flight while running. */
  outcome: string
  statusCode: number | null
  decision: AttemptDecisionState
  nextAttemptAt: number | null
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
