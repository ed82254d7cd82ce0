export { checkSenderConformance, UnknownEndpointError, type CheckSenderOptions } from './from-store'
export { evaluateSenderConformance, type SenderConformanceInput } from './evaluate'
export { expectedAttempts } from './expected'
export { groupByEvent, senderOutcome, toArrivals } from './observe'
