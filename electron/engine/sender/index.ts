// The sending half of Hookloop. See docs/sender.md.
export { createSender, type Sender, type SenderOptions, type SigningTime, type PublishInput, type PublishResult } from './sender'
export { SenderError, type SenderErrorCode } from './sender-error'
export type { Subscription, SubscriptionInput, SubscriptionPatch, SubscriptionTarget } from './subscriptions'
export type { ResolveEndpointUrl } from './attempt-runner'
export { ATTEMPT_HEADER, defaultEventIdHeader, type SignFn } from './request-headers'
export { postOnce, type PostInput, type PostResult } from './http-post'
export { classifyNetworkError } from './classify-error'
export { sentBody, payloadBytes, parsedPayload, type StoredEvent } from './envelope'
