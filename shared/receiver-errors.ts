// One error type for every receiver definition (rule, endpoint, listen config) that fails
// validation: it names WHERE (a JSON path such as `endpoints[0].rules[1].steps[0].type`) and
// WHAT is wrong, so a CLI can print it and a UI can point at the field.
import type { z } from 'zod'

export class DefinitionError extends Error {
  override readonly name = 'DefinitionError'
  constructor(
    /** JSON path of the first problem, '' for the whole value. */
    readonly path: string,
    readonly problem: string,
  ) {
    super(path ? `${path}: ${problem}` : problem)
  }
}

/** `['endpoints', 0, 'rules']` → `endpoints[0].rules`. */
export function jsonPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<PropertyKey, unknown>)[part as string]
  }
  return cur
}

/** Turns zod's first issue into a DefinitionError a person can act on. */
export function toDefinitionError(error: z.ZodError, input: unknown, prefix = ''): DefinitionError {
  const issue = error.issues[0]
  if (!issue) return new DefinitionError(prefix, 'invalid value')
  const path = jsonPath(issue.path, prefix)
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) {
    const options = 'options' in issue && Array.isArray(issue.options) ? (issue.options as unknown[]).map(String) : []
    const value = valueAt(input, issue.path)
    const what = value === undefined ? `missing "${String(issue.discriminator)}"` : `unknown ${String(issue.discriminator)} ${JSON.stringify(value)}`
    return new DefinitionError(path, `${what}; expected one of: ${options.join(', ')}`)
  }
  if (issue.code === 'unrecognized_keys') {
    return new DefinitionError(path, `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`)
  }
  return new DefinitionError(path, issue.message)
}
