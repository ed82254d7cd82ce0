export { ConsumerCheckInputError, ConsumerUnreachableError, formatReportCard, runConsumerCheck, gradeHandshakeAnswer, makeHandshake, severityMark } from './consumer'
export { checkSenderConformance, UnknownEndpointError } from './sender'
