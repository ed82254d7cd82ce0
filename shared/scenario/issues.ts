// Turns zod's issues into one line per problem that names the JSON path and says what is wrong
// in the scenario's own words, e.g.
//   events[2].faults[0].type: unknown fault "dupe" (expected one of duplicate, drop, …)
// Pure: used by the CLI, the engine and the UI's scenario editor alike.
import type { z } from 'zod'
import { closestName, knownFieldsAt } from './suggest'

export interface ScenarioProblem {
  /** JSON path of the offending value, e.g. `events[2].faults[0].type`; `(root)` for the document. */
  path: string
  message: string
}

export function formatProblem(problem: ScenarioProblem): string {
  return `${problem.path}: ${problem.message}`
}

export type PathKey = PropertyKey

export function formatPath(path: readonly PathKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out === '' ? '(root)' : out
}

function valueAt(root: unknown, path: readonly PathKey[]): unknown {
  let value = root
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`
    case 'object':
      return 'an object'
    default:
      return typeof value
  }
}

// What the value at a path is called in messages: the array or field it sits in says what it is.
const NOUNS: Record<string, string> = {
  faults: 'fault',
  actions: 'action',
  steps: 'step',
  matchers: 'matcher',
  rules: 'rule',
  dedupe: 'dedupe kind',
  policy: 'policy',
  preset: 'policy',
  clock: 'clock mode',
  mode: 'mode',
  scheme: 'signature scheme',
  status: 'status',
  schedule: 'schedule',
  classification: 'classification',
}

function nounFor(path: readonly PathKey[]): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const key = path[i]
    if (typeof key === 'string' && key !== 'type' && NOUNS[key]) return NOUNS[key]
  }
  return 'value'
}

function listValues(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
}

type Issue = z.core.$ZodIssue

/** A union branch that failed only because the value is of another kind altogether. */
function branchIsTypeMismatch(branch: readonly Issue[], value: unknown): boolean {
  return branch.every((issue) => {
    if (issue.path.length > 0) return false
    if (issue.code === 'invalid_type') return true
    if (issue.code === 'invalid_value') return !issue.values.some((v) => typeof v === typeof value)
    if (issue.code === 'invalid_union') return issue.errors.every((b) => branchIsTypeMismatch(b, value))
    return false
  })
}

function branchExpectation(branch: readonly Issue[]): string {
  const first = branch[0]
  if (!first) return 'something else'
  if (first.code === 'invalid_type') return first.expected === 'object' ? 'an object' : first.expected === 'array' ? 'an array' : `a ${first.expected}`
  if (first.code === 'invalid_value') return first.values.length === 1 ? JSON.stringify(first.values[0]) : `one of ${listValues(first.values)}`
  return 'something else'
}

function issueProblems(issue: Issue, basePath: readonly PathKey[], root: unknown, schema?: z.ZodType): ScenarioProblem[] {
  const path = [...basePath, ...issue.path]
  const value = valueAt(root, path)
  const at = formatPath(path)
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return [{ path: at, message: `required field missing (expected ${issue.expected})` }]
      return [{ path: at, message: `expected ${issue.expected}, got ${describeValue(value)}` }]
    case 'invalid_union': {
      if (issue.discriminator !== undefined) {
        const options = (issue as { options?: unknown[] }).options ?? []
        const parentPath = path.slice(0, -1)
        if (value === undefined) return [{ path: at, message: `required field missing (expected one of ${listValues(options)})` }]
        // `type` and `mode` name the thing itself; other tags (`preset`, `kind`) qualify it.
        const tag = String(issue.discriminator)
        const noun = tag === 'type' || tag === 'mode' ? nounFor(parentPath) : `${nounFor(parentPath) === 'value' ? '' : `${nounFor(parentPath)} `}${tag}`
        return [{ path: at, message: `unknown ${noun} ${JSON.stringify(value)} (expected one of ${listValues(options)})` }]
      }
      // An untagged union (e.g. a policy preset name or a policy object): report against the
      // branch that matches the kind of value given, else say which kinds are accepted.
      const fitting = issue.errors.filter((branch) => !branchIsTypeMismatch(branch, value))
      if (fitting.length === 1 && fitting[0]) return fitting[0].flatMap((sub) => issueProblems(sub, path, root, schema))
      if (fitting.length === 0) {
        return [{ path: at, message: `expected ${issue.errors.map(branchExpectation).join(' or ')}, got ${describeValue(value)}` }]
      }
      return [{ path: at, message: `${describeValue(value)} matches none of the accepted forms` }]
    }
    case 'invalid_value': {
      if (value === undefined) return [{ path: at, message: `required field missing (expected ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${listValues(issue.values)}`})` }]
      if (issue.values.length === 1 && path.length === 1 && path[0] === 'version') {
        return [{ path: at, message: `unsupported scenario version ${JSON.stringify(value)} (this Hookloop reads version ${String(issue.values[0])})` }]
      }
      if (issue.values.length === 1) return [{ path: at, message: `expected ${JSON.stringify(issue.values[0])}, got ${describeValue(value)}` }]
      if (typeof value === 'string') return [{ path: at, message: `unknown ${nounFor(path)} ${JSON.stringify(value)} (expected one of ${listValues(issue.values)})` }]
      return [{ path: at, message: `expected one of ${listValues(issue.values)}, got ${describeValue(value)}` }]
    }
    case 'unrecognized_keys': {
      const known = schema ? knownFieldsAt(schema, root, path) : undefined
      return issue.keys.map((key) => {
        const guess = known && closestName(key, known)
        const hint = guess ? ` (did you mean ${JSON.stringify(guess)}?)` : known ? ` (known fields: ${known.join(', ')})` : ''
        return { path: formatPath([...path, key]), message: `unknown field ${JSON.stringify(key)}${hint}` }
      })
    }
    case 'too_small':
      if (issue.origin === 'array') return [{ path: at, message: `needs at least ${String(issue.minimum)} item${issue.minimum === 1 ? '' : 's'}` }]
      if (issue.origin === 'string') return [{ path: at, message: issue.minimum === 1 ? 'must not be empty' : `needs at least ${String(issue.minimum)} characters` }]
      return [{ path: at, message: `must be ${issue.inclusive ? '≥' : '>'} ${String(issue.minimum)}, got ${describeValue(value)}` }]
    case 'too_big':
      if (issue.origin === 'array') return [{ path: at, message: `has more than ${String(issue.maximum)} items` }]
      return [{ path: at, message: `must be ${issue.inclusive ? '≤' : '<'} ${String(issue.maximum)}, got ${describeValue(value)}` }]
    case 'invalid_format': {
      const generic = issue.message === 'Invalid URL' ? 'expected an http(s) URL' : issue.message
      return [{ path: at, message: `${generic}, got ${describeValue(value)}` }]
    }
    case 'not_multiple_of':
      return [{ path: at, message: `must be a multiple of ${String(issue.divisor)}, got ${describeValue(value)}` }]
    case 'invalid_key':
    case 'invalid_element':
      return issue.issues.flatMap((sub) => issueProblems(sub, path, root, schema))
    case 'custom':
      return [{ path: at, message: issue.message }]
    default: {
      const unhandled: never = issue
      return [{ path: at, message: (unhandled as { message: string }).message }]
    }
  }
}

/**
 * One problem per zod issue (or per unknown key), in document order of the issues. With the
 * schema that was checked, an unknown field also gets the closest known one as a suggestion.
 */
export function problemsFromZod(error: z.ZodError, root: unknown, schema?: z.ZodType): ScenarioProblem[] {
  return error.issues.flatMap((issue) => issueProblems(issue, [], root, schema))
}
