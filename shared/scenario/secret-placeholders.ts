// Secret placeholders in a scenario file: a secret written as `${NAME}` (capitals, digits, "_")
// is not in the file; `hookloop run` fills it from `--secret NAME=VALUE` or the environment
// variable NAME before the file is validated. A scenario made from a customer's incident keeps
// its secrets out this way, and CI passes them in as it passes any other secret.
import { formatPath, type PathKey, type ScenarioProblem } from './issues'
import { jsonSyntaxProblem, validateScenario, type ScenarioParseResult } from './validate'

const PLACEHOLDER = /^\$\{([A-Z_][A-Z0-9_]*)\}$/

export function placeholder(name: string): string {
  return `\${${name}}`
}

/** The variable name for a secret of `owner` (an endpoint slug, a subscription id): HOOKLOOP_SECRET_<OWNER>. */
export function placeholderName(owner: string): string {
  return `HOOKLOOP_SECRET_${owner.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`
}

/** The placeholder's variable name, or null when the value is an ordinary string. */
export function placeholderOf(value: unknown): string | null {
  return typeof value === 'string' ? (PLACEHOLDER.exec(value)?.[1] ?? null) : null
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Where placeholders may stand: endpoint and subscription secrets, subscription header values. */
function* slots(document: unknown): Generator<{ path: PathKey[]; value: unknown; set: (v: string) => void }> {
  if (!isObject(document)) return
  for (const section of ['endpoints', 'subscriptions'] as const) {
    const list = document[section]
    if (!Array.isArray(list)) continue
    for (const [i, item] of list.entries()) {
      if (!isObject(item)) continue
      const secrets = item.secrets
      if (Array.isArray(secrets)) for (const [j, value] of secrets.entries()) yield { path: [section, i, 'secrets', j], value, set: (v) => (secrets[j] = v) }
      const headers = item.headers
      if (section === 'subscriptions' && isObject(headers)) for (const [name, value] of Object.entries(headers)) yield { path: [section, i, 'headers', name], value, set: (v) => (headers[name] = v) }
    }
  }
}

/** Every placeholder's variable name in a document, once each, in the order they appear. */
export function placeholdersIn(document: unknown): string[] {
  const names = new Set<string>()
  for (const slot of slots(document)) {
    const name = placeholderOf(slot.value)
    if (name) names.add(name)
  }
  return [...names]
}

export type FilledDocument = { ok: true; document: unknown; filled: string[] } | { ok: false; problems: ScenarioProblem[] }

/** A copy of the document with every placeholder replaced by lookup(name); a problem per one that has no value. */
export function fillPlaceholders(document: unknown, lookup: (name: string) => string | undefined): FilledDocument {
  const copy = structuredClone(document)
  const problems: ScenarioProblem[] = []
  const filled = new Set<string>()
  for (const slot of slots(copy)) {
    const name = placeholderOf(slot.value)
    if (!name) continue
    const value = lookup(name)
    if (value === undefined || value === '') {
      problems.push({ path: formatPath(slot.path), message: `the secret ${placeholder(name)} has no value: give --secret ${name}=… or set the environment variable ${name}` })
      continue
    }
    slot.set(value)
    filled.add(name)
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, document: copy, filled: [...filled] }
}

/** A scenario file's text → the scenario, its placeholders filled by lookup(name) first (a problem per one without a value). */
export function parseScenarioWithSecrets(text: string, lookup: (name: string) => string | undefined): ScenarioParseResult {
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (error) {
    return { ok: false, problems: [jsonSyntaxProblem(text, error)] }
  }
  const filled = fillPlaceholders(document, lookup)
  return filled.ok ? validateScenario(filled.document) : { ok: false, problems: filled.problems }
}
