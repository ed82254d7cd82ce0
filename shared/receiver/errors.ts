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

/**
 * An edit made on a revision of a definition that is no longer the store's: someone else (another
 * window, process or agent) changed it since. Nothing was written; reload and edit again.
 */
export class EditConflictError extends Error {
  override readonly name = 'EditConflictError'
  constructor(
    /** What was edited, as people name it: "rule 7f3c…". */
    readonly what: string,
    /** The revision the edit was made on, and the store's now. */
    readonly given: number,
    readonly current: number,
  ) {
    super(`${what} was changed elsewhere (another window, process or agent) since you opened it: your edit was made on revision ${given}, it is now at revision ${current}. Nothing was saved; reload it and edit again.`)
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

/**
 * A plain union of discriminated parts (the connection steps, then forward mode's): report the
 * branch whose type matched, else the branch that lists the known types.
 */
export function unionBranch(issue: z.core.$ZodIssue | undefined): z.core.$ZodIssue | undefined {
  if (!issue || issue.code !== 'invalid_union' || ('discriminator' in issue && issue.discriminator) || !Array.isArray(issue.errors) || issue.errors.length === 0) return issue
  const typeMismatch = (i: z.core.$ZodIssue) => i.path.length === 1 && i.path[0] === 'type' && (i.code === 'invalid_value' || (i.code === 'invalid_union' && 'discriminator' in i && Boolean(i.discriminator)))
  const matched = issue.errors.find((branch) => branch.length > 0 && !branch.some(typeMismatch))
  const listed = issue.errors.find((branch) => branch.some((i) => i.code === 'invalid_union' && 'discriminator' in i && Boolean(i.discriminator)))
  const chosen = (matched ?? listed)?.[0]
  return chosen ? unionBranch({ ...chosen, path: [...issue.path, ...chosen.path] }) : issue
}

/** Turns zod's first issue into a DefinitionError a person can act on. */
export function toDefinitionError(error: z.ZodError, input: unknown, prefix = ''): DefinitionError {
  const issue = unionBranch(error.issues[0])
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
