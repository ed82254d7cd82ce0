// The receiving half of Hookloop: capture every request, verify signatures, flag duplicates,
// answer by rules (faults included). Definitions live in shared/ (rules, receiver, events).
export { createReceiver, type Receiver, type ReceiverOptions, type RuleEntry } from './receiver'
export type { ReceiverEvent, ReceiverEventMap, ReceiverEventType, ReceiverEventListener, ResponseOutcome, CapturedRequest } from '../../../shared/receiver'
export type { RequestRecord } from '../../../shared/receiver'
export { toRequestRecord } from './records'
export type { ResendMode, ResendOptions } from './resend'
export { resendStored } from './resend-stored'
export { verifyRequest } from './verify-request'
