// Payload schemas: a body held against a JSON Schema (drift.ts: every difference classified, what
// contracts check traffic with), and the schemas providers publish, picked per captured request by
// its event and API version (sources.ts: GitHub's webhooks OpenAPI, Shopify's topic schemas), for
// the schema verdict the receiver gives each request off its capture path; or the schema an
// endpoint's contract gives (ContractSchemas, supplied by contracts/).
export { parseBody } from './body-json'
export { createBodyChecker, DIFFERENCE_KINDS, isBreaking, jsonType, shortJson, typedValue, UnusableSchemaError, type BodyChecker, type Difference, type DifferenceKind, type SchemaDialect } from './drift'
export { createSchemaJudge, noSchema, verdictWithoutSource, type SchemaJudge } from './judge'
export { createThreadJudge, judgeThreadScript, type ThreadJudge } from './judge-thread'
export { pickSchema, SCHEMA_SOURCES } from './sources'
export type { ContractSchemas, GivenSchema, NoGivenSchema, SchemaPick, SchemaSource } from './source'
