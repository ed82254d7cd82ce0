// The receiving half of Hookloop: capture every request, verify signatures, flag duplicates,
// answer by rules (faults included). Definitions live in shared/ (rules, receiver, events).
export { createReceiver, type Receiver, type ReceiverOptions } from './receiver'
export type { RuleEntry } from './definitions'
export type { ReceiverEvent, ReceiverEventMap, ReceiverEventType, ReceiverEventListener, ResponseOutcome, CapturedRequest } from '../../../shared/receiver'
export type { RequestRecord } from '../../../shared/receiver'
