// The consumer conformance check: grade someone's webhook endpoint with a battery of deliveries.
export { runConsumerCheck, ConsumerCheckInputError, ConsumerUnreachableError, type ConsumerCheckOptions, type ConsumerCheckDeps } from './run'
export { formatReportCard, severityMark } from './card'
export { CONSUMER_ADVICE, type CheckAdvice } from './advice'
export { gradeConsumer, describeAnswer, type GradeInput } from './grade'
export { percentile, latencyStats } from './latency'
export { PROBE_KINDS, type ProbeKind } from './battery'
export { gradeHandshakeAnswer, makeHandshake, type HandshakeAnswer } from './handshake'
