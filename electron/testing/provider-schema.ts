// The schema verdict as each runner asserts it: a matcher for vitest and Jest
// (`expect.extend(hookloopMatchers)`, then `expect(request).toMatchProviderSchema()`), and an
// assertion for node:test (`assertProviderSchema(request)`). Both fail with where the body misses
// its provider's schema, what the schema expects, what came and the schema's words.
import { AssertionError } from 'node:assert'
import type { ReceivedRequest } from './received-request'

/** Why a request does not match its provider's schema, in lines; null when it does. */
export function providerSchemaProblem(request: ReceivedRequest): string | null {
  const schema = request.schema
  const which = `request ${request.id} (${request.method} ${request.path})`
  if (schema === null) return `${which} was not held against a schema: its endpoint verifies no provider's scheme`
  switch (schema.verdict) {
    case 'valid':
      return null
    case 'no-schema':
      return `${which} has no schema to match: ${schema.reason ?? 'none'}`
    case 'invalid':
      return [
        `${which} does not match ${schema.schema ?? 'its schema'} of ${schema.source ?? 'its provider'}${schema.version ? ` (${schema.version})` : ''}:`,
        ...schema.problems.map((p) => `  ${p.pointer || '/'}: expected ${p.expected}, got ${p.got} (schema: ${p.schemaSays})`),
      ].join('\n')
    default: {
      const never: never = schema.verdict
      return never
    }
  }
}

/** node:test (or any runner): throws an AssertionError saying where, unless the body matches its provider's schema. */
export function assertProviderSchema(request: ReceivedRequest): void {
  const problem = providerSchemaProblem(request)
  if (problem !== null) throw new AssertionError({ message: problem, actual: request.schema, expected: 'a body valid against its provider\u2019s schema', operator: 'toMatchProviderSchema' })
}

/** For `expect.extend` (vitest, Jest): `toMatchProviderSchema()`, and `.not` with it. */
export const hookloopMatchers = {
  toMatchProviderSchema(received: ReceivedRequest) {
    const problem = providerSchemaProblem(received)
    return {
      pass: problem === null,
      message: () => problem ?? `request ${received.id} (${received.method} ${received.path}) matches ${received.schema?.schema ?? 'its schema'}, and was expected not to`,
    }
  },
}
