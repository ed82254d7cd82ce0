// `expect.schema: "valid"`: every request that arrived at the scenario's endpoints and was held
// against a schema (its endpoint's contract's, else its provider's published one) matches it. Pure, like the other expectations: it reads
// only the report's arrivals, each with the verdict the receiver stored (docs/receiver.md,
// "Schema verdict"). A run where nothing was judged fails: a check that saw nothing checks nothing.
import type { ExpectationResult, ReportArrival } from './report'
import type { Scenario } from './schema'
import { schemaWords } from './arrivals'

export function evaluateSchemaExpectation(scenario: Scenario, arrivals: readonly ReportArrival[]): ExpectationResult[] {
  if (scenario.expect.schema === undefined) return []
  const judged = arrivals.filter((a) => a.schema?.verdict === 'valid' || a.schema?.verdict === 'invalid')
  const invalid = judged.filter((a) => a.schema?.verdict === 'invalid')
  let message = ''
  if (judged.length === 0) {
    message = `no request that arrived was held against a schema (${arrivals.length} arrived; an endpoint is judged when it verifies a provider's scheme or names a contract)`
  } else if (invalid.length > 0) {
    const first = invalid[0] as ReportArrival
    message = `${invalid.length} of ${judged.length} judged requests do not match their schema; the first, request ${first.request_id} at ${first.endpoint}, is ${schemaWords(first.schema ?? null)}`
  }
  return [
    {
      path: 'expect.schema',
      subject: { kind: 'scenario', field: 'schema' },
      label: 'every judged request matches its schema (its contract’s or its provider’s)',
      ok: message === '',
      expected: scenario.expect.schema,
      actual: { judged: judged.length, invalid: invalid.map((a) => a.request_id) },
      message,
    },
  ]
}
