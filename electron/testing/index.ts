// hookloop/testing: Hookloop inside a test file (vitest, Jest, node:test). A receiver to send to,
// a provider's deliveries to receive, scenario files to run; see docs/testing.md.
export { startReceiver, type StartReceiverOptions, type TestEndpoint, type TestReceiver, type RequestFilter } from './receiver'
export type { ReceivedRequest, Verdict } from './received-request'
export { assertProviderSchema, hookloopMatchers, providerSchemaProblem } from './provider-schema'
export type { SchemaProblem, SchemaVerdict } from '../../shared/receiver'
export { deliver, providers, type DeliverOptions, type DeliverEvent, type DeliverResult, type DeliveredEvent } from './deliver'
export { runScenarioFile, type RunScenarioFileOptions } from './scenario'
export { closeAll, openResources } from './open-resources'
export type { ScenarioReport } from '../../shared/scenario'
export type { AttemptView, DeliveryView } from '../../shared/sender'
