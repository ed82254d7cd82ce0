// Contracts: a spec (OpenAPI 3.0/3.1 webhooks and callbacks, AsyncAPI 2.x/3.x operations) read
// into one model, checked against captured traffic for drift, and made into endpoints and example
// bodies (`hookloop contract`, docs/contracts.md).
export { checkContract, requestEventType, type ContractReport, type Finding, type OperationReport } from './check'
export { DIFFERENCE_KINDS, isBreaking, type Difference, type DifferenceKind } from '../payload-schemas'
export { exampleFileName, exampleOf } from './examples'
export { putContractEndpoints, type PutEndpoint } from './endpoints'
export { loadContract } from './load'
export { EVENT_TYPE_FIELDS, EVENT_TYPE_HEADERS, type ContractMessage, type ContractOperation, type ContractSpec } from './model'
export { formatReportJUnit, formatReportMarkdown, formatReportText, reportBreaking, reportVerdict } from './report-formats'
export { checkSentEvents, type SentReport } from './sent'
export { SpecError } from './spec-error'
export { createContractSchemas, createSpecReader, type SpecReader } from './spec-schemas'
export { createContractEvents, type ContractEvents } from './contract-events'
export type { LoadSpecOptions } from './spec-source'
export { readSentEvents, readTraffic, type SentEvent, type TrafficRequest } from './traffic'
