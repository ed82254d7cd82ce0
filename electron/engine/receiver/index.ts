// The receiving half of Hookloop: capture every request, verify signatures, flag duplicates,
// answer by rules (faults included). Their schemas live in shared/receiver/; definitions.ts keeps the endpoints and rules in use.
export { createReceiver, type Receiver, type ReceiverOptions } from './receiver'
export type { RuleEntry } from './definitions'
export type { ReceiverEvent, ReceiverEventMap, ReceiverEventType, ReceiverEventListener, ResponseOutcome, CapturedRequest, RequestRecord } from '../../../shared/receiver'
export { ruleTargets } from './forward-targets'
export { toRequestRecord } from './records'
export type { ResendMode, ResendOptions } from './resend'
export { resendStored } from './resend-stored'
export { verifyRequest } from './verify-request'
