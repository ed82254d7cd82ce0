// Judges what arrived at one of our endpoints, request by request in arrival order: headers
// (present, equal, matching), body fields by path, the receiver's signature verdict and duplicate
// number. Pure, like the other expectations: it reads only the report's arrivals.
import type { ArrivalExpectation, HeaderCheck } from './schema'
import type { ExpectationResult, ReportArrival } from './report'
import { formatPath } from './issues'

type Path = (string | number)[]

function check(endpoint: string, path: Path, label: string, expected: unknown, actual: unknown, failure: string | null): ExpectationResult {
  const subject = { kind: 'endpoint', endpoint, field: String(path[path.length - 1] ?? 'arrivals') } as const
  return { path: formatPath(path), subject, label, ok: failure === null, expected, actual, message: failure ?? '' }
}

/** `payload.items[0].sku` → ['payload', 'items', 0, 'sku']. */
export function bodyPath(path: string): (string | number)[] {
  const keys: (string | number)[] = []
  for (const part of path.split('.')) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part)
    if (!match) {
      keys.push(part)
      continue
    }
    if (match[1]) keys.push(match[1])
    for (const index of (match[2] ?? '').matchAll(/\[(\d+)\]/g)) keys.push(Number(index[1]))
  }
  return keys
}

/** A verdict as a failure says it: "invalid at /pull_request/head/repo (expected required, came missing)". */
export function schemaWords(schema: ReportArrival['schema']): string {
  if (!schema) return "none (the endpoint verifies no provider's scheme, so nothing was judged)"
  if (schema.verdict !== 'invalid') return schema.verdict
  return `invalid at ${schema.pointer || '/'}${schema.expected ? ` (expected ${schema.expected}${schema.got ? `, came ${schema.got}` : ''})` : ''}`
}

const MISSING = Symbol('missing')

export function valueAtPath(body: unknown, path: string): unknown {
  let value: unknown = body
  for (const key of bodyPath(path)) {
    if (value === null || typeof value !== 'object') return MISSING
    if (typeof key === 'number' ? !Array.isArray(value) || key >= value.length : !Object.prototype.hasOwnProperty.call(value, key)) return MISSING
    value = (value as Record<string | number, unknown>)[key]
  }
  return value
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
  return value
}

function headerFailure(name: string, check: HeaderCheck, actual: string | undefined): string | null {
  if (typeof check === 'string' || 'equals' in check) {
    const want = typeof check === 'string' ? check : check.equals
    if (actual === undefined) return `header ${name} is missing, expected ${JSON.stringify(want)}`
    return actual === want ? null : `header ${name} is ${JSON.stringify(actual)}, expected ${JSON.stringify(want)}`
  }
  if ('present' in check) {
    if (check.present) return actual === undefined ? `header ${name} is missing, expected it present` : null
    return actual === undefined ? null : `header ${name} is present (${JSON.stringify(actual)}), expected it absent`
  }
  if (actual === undefined) return `header ${name} is missing, expected it to match /${check.matches}/`
  return new RegExp(check.matches).test(actual) ? null : `header ${name} is ${JSON.stringify(actual)}, which does not match /${check.matches}/`
}

export function evaluateArrival(exp: ArrivalExpectation, endpoint: string, base: Path, label: string, arrival: ReportArrival | undefined, tolerance: number): ExpectationResult[] {
  const out: ExpectationResult[] = []
  const none = (path: Path, what: string, expected: unknown) => out.push(check(endpoint, path, `${label}: ${what}`, expected, null, `${label} never arrived`))
  for (const [name, want] of Object.entries(exp.headers ?? {})) {
    const path = [...base, 'headers', name]
    if (!arrival) none(path, `header ${name}`, want)
    else {
      const actual = arrival.headers[name.toLowerCase()]
      out.push(check(endpoint, path, `${label}: header ${name}`, want, actual ?? null, headerFailure(name, want, actual)))
    }
  }
  for (const [field, want] of Object.entries(exp.body ?? {})) {
    const path = [...base, 'body', field]
    if (!arrival) {
      none(path, `body ${field}`, want)
      continue
    }
    const actual = valueAtPath(arrival.body, field)
    const failure = actual === MISSING ? `body has no ${field}, expected ${JSON.stringify(want)}` : sameJson(actual, want) ? null : `body ${field} is ${JSON.stringify(actual)}, expected ${JSON.stringify(want)}`
    out.push(check(endpoint, path, `${label}: body ${field}`, want, actual === MISSING ? null : actual, failure))
  }
  if (exp.signature !== undefined) {
    const path = [...base, 'signature']
    if (!arrival) none(path, 'signature', exp.signature)
    else out.push(check(endpoint, path, `${label}: signature`, exp.signature, arrival.signature, arrival.signature === exp.signature ? null : `signature result is ${JSON.stringify(arrival.signature ?? 'not_verified')}, expected ${JSON.stringify(exp.signature)}`))
  }
  if (exp.duplicate !== undefined) {
    const path = [...base, 'duplicate']
    if (!arrival) none(path, 'duplicate', exp.duplicate)
    else out.push(check(endpoint, path, `${label}: duplicate`, exp.duplicate, arrival.duplicate, arrival.duplicate === exp.duplicate ? null : `duplicate number is ${JSON.stringify(arrival.duplicate)}, expected ${JSON.stringify(exp.duplicate)}`))
  }
  if (exp.schema !== undefined) {
    const path = [...base, 'schema']
    if (!arrival) none(path, 'schema', exp.schema)
    else {
      const actual = arrival.schema?.verdict ?? null
      out.push(check(endpoint, path, `${label}: schema`, exp.schema, actual, actual === exp.schema ? null : `schema verdict is ${schemaWords(arrival.schema ?? null)}, expected ${exp.schema}`))
    }
  }
  if (exp.run_ms !== undefined) {
    const path = [...base, 'run_ms']
    if (!arrival) none(path, 'run_ms', exp.run_ms)
    else {
      const ok = Math.abs(arrival.run_ms - exp.run_ms) <= tolerance
      out.push(check(endpoint, path, `${label}: run_ms`, exp.run_ms, arrival.run_ms, ok ? null : `arrived at run +${arrival.run_ms} ms, expected +${exp.run_ms} ms${tolerance ? ` (±${tolerance})` : ''}`))
    }
  }
  return out
}

/** Every arrival expectation in order, plus their count: the list says how many requests arrive. */
export function evaluateArrivals(expected: readonly ArrivalExpectation[], base: Path, endpoint: string, arrivals: readonly ReportArrival[], tolerance: number): ExpectationResult[] {
  const count = check(endpoint, base, `endpoint ${endpoint}: arrivals`, expected.length, arrivals.length, expected.length === arrivals.length ? null : `${arrivals.length} requests arrived, expected ${expected.length}`)
  return [count, ...expected.flatMap((exp, i) => evaluateArrival(exp, endpoint, [...base, i], `endpoint ${endpoint}: request ${i + 1}`, arrivals[i], tolerance))]
}
