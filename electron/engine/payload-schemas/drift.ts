// One body against one schema: each difference classified. Breaking: a required field missing, a
// type that differs, a value outside an enum (or a const). Not breaking: a field the spec does not
// name ("undocumented", reported even where the schema allows extra fields: a consumer cannot rely
// on what the spec never promised), and any other keyword a value misses (format, pattern, bounds
// …: "constraint"). ajv validates, in the spec's dialect (2020-12 for OpenAPI 3.1, draft 07 else).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
// With its extension: ajv has no exports map, and Node's ESM loader adds none to a deep import.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

/** The JSON Schema dialect a schema is written in. */
export type SchemaDialect = 'draft-2020-12' | 'draft-07'

export const DIFFERENCE_KINDS = ['required', 'type', 'enum', 'not-json', 'undocumented', 'constraint'] as const
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number]
const BREAKING: ReadonlySet<DifferenceKind> = new Set(['required', 'type', 'enum', 'not-json'])
export const isBreaking = (kind: DifferenceKind) => BREAKING.has(kind)

export interface Difference {
  kind: DifferenceKind
  breaking: boolean
  /** Where in the body: a JSON pointer ("" is the whole body). */
  pointer: string
  /** What the spec expects there, in a few words. */
  expected: string
  /** What came. */
  got: string
  /** The schema's own words: the field's description, else the keyword as the spec writes it. */
  schemaSays: string
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A schema the check cannot use (it refers to itself: $refs resolved into a loop). */
export class UnusableSchemaError extends Error {}

/** A copy ajv can compile: no `$schema`/`$id` (the spec's document owns those), OpenAPI 3.0's `nullable` as a type with null. */
function prepared(schema: unknown, nullableKeyword: boolean, ancestors = new Set<unknown>()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => prepared(item, nullableKeyword, ancestors))
  if (!isObject(schema)) return schema
  if (ancestors.has(schema)) throw new UnusableSchemaError('its schema refers to itself (a recursive $ref); Hookloop checks schemas without recursion')
  ancestors.add(schema)
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === '$id' || key === 'nullable') continue
    // Examples are data, not schemas: copied as they are.
    out[key] = key === 'example' || key === 'examples' || key === 'const' || key === 'enum' || key === 'default' ? value : prepared(value, nullableKeyword, ancestors)
  }
  ancestors.delete(schema)
  if (nullableKeyword && schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
  }
  return out
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

export interface BodyChecker {
  check(body: unknown): Difference[]
}

export interface BodyCheckerOptions {
  /**
   * Documents the schema's $refs point into, each with its `$id` (a provider's whole schema
   * document): ajv compiles only what the schema reaches, each referenced schema once, instead of
   * the schema with every $ref put in place.
   */
  documents?: Json[]
  /** Default true; false: fields the schema does not name are not looked for (a verdict does not report them). */
  undocumented?: boolean
}

export function createBodyChecker(schema: Json, dialect: SchemaDialect, nullableKeyword: boolean, checker: BodyCheckerOptions = {}): BodyChecker {
  const clean = prepared(schema, nullableKeyword) as Json
  const options = { allErrors: true, strict: false, verbose: true, validateSchema: false, logger: false as const }
  const ajv = dialect === 'draft-2020-12' ? new Ajv2020(options) : new Ajv(options)
  addFormats(ajv)
  const lookForUndocumented = checker.undocumented ?? true
  let validate: ValidateFunction
  try {
    for (const document of checker.documents ?? []) ajv.addSchema(document)
    validate = ajv.compile(clean)
  } catch (error) {
    throw new UnusableSchemaError(`its schema does not compile: ${(error as Error).message}`)
  }
  return {
    check(body) {
      validate(body)
      const found = [...fromErrors(validate.errors ?? [], body), ...(lookForUndocumented ? undocumented(body, clean, '') : [])]
      // One line per place and kind: ajv can say the same thing twice (a type checked in two branches).
      const seen = new Set<string>()
      return found.filter((d) => {
        const key = `${d.kind}\u0000${d.pointer}\u0000${d.expected}\u0000${d.got}`
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
    },
  }
}

/** The JSON type of a value, as JSON Schema names them. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/** A value with its type in a few characters: `string "x"`, `integer 7`, `null`. */
export function typedValue(value: unknown): string {
  return value === null ? 'null' : `${jsonType(value)} ${shortJson(value, 24)}`
}

/** A value in a few characters: what a table cell can hold. */
export function shortJson(value: unknown, max = 40): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

function at(value: unknown, pointer: string): unknown {
  let current = value
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(current)) current = current[Number(key)]
    else if (isObject(current)) current = current[key]
    else return undefined
  }
  return current
}

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')
const list = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')

function describe(schema: unknown, fallback: string): string {
  return isObject(schema) && typeof schema.description === 'string' && schema.description.trim() ? schema.description.trim() : fallback
}

function fromErrors(errors: ErrorObject[], body: unknown): Difference[] {
  const out: Difference[] = []
  for (const e of errors) {
    // Inside a oneOf/anyOf branch ajv reports every branch's misses; the choice's own error says it once.
    if (/\/(oneOf|anyOf)\/\d+\//.test(e.schemaPath)) continue
    // Fields the schema does not name are reported once, by the walk below, whatever the schema allows.
    if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') continue
    const value = at(body, e.instancePath)
    const parent = e.parentSchema
    switch (e.keyword) {
      case 'required': {
        const missing = String((e.params as { missingProperty: string }).missingProperty)
        const property = isObject(parent) && isObject(parent.properties) ? parent.properties[missing] : undefined
        out.push({ kind: 'required', breaking: true, pointer: `${e.instancePath}/${escape(missing)}`, expected: 'required', got: 'missing', schemaSays: describe(property, `required: [${list((isObject(parent) && Array.isArray(parent.required) ? parent.required : [missing]) as unknown[])}]`) })
        break
      }
      case 'type': {
        const type = (e.params as { type: string | string[] }).type
        const types = Array.isArray(type) ? type.join(' or ') : type
        out.push({ kind: 'type', breaking: true, pointer: e.instancePath, expected: types, got: typedValue(value), schemaSays: describe(parent, `type: ${types}`) })
        break
      }
      case 'enum': {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues
        out.push({ kind: 'enum', breaking: true, pointer: e.instancePath, expected: `one of ${list(allowed)}`, got: shortJson(value), schemaSays: describe(parent, `enum: [${list(allowed)}]`) })
        break
      }
      case 'const': {
        const allowed = (e.params as { allowedValue: unknown }).allowedValue
        out.push({ kind: 'enum', breaking: true, pointer: e.instancePath, expected: shortJson(allowed), got: shortJson(value), schemaSays: describe(parent, `const: ${shortJson(allowed)}`) })
        break
      }
      default:
        out.push({ kind: 'constraint', breaking: false, pointer: e.instancePath, expected: e.message ?? e.keyword, got: shortJson(value), schemaSays: describe(parent, `${e.keyword}: ${shortJson(e.schema)}`) })
    }
  }
  return out
}

/** The schema and every schema it is combined with (allOf, anyOf, oneOf), flattened. */
function branches(schema: unknown): Json[] {
  if (!isObject(schema)) return []
  const combined = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]).flatMap(branches) : []))
  return [schema, ...combined]
}

/** Fields in the body that no schema on their path names (an object whose schema lists no properties documents any field). */
function undocumented(value: unknown, schema: unknown, pointer: string): Difference[] {
  const schemas = branches(schema)
  if (schemas.length === 0) return []
  if (Array.isArray(value)) {
    const items = schemas.map((s) => s.items).find(isObject)
    const prefix = schemas.map((s) => s.prefixItems).find(Array.isArray) as unknown[] | undefined
    return value.flatMap((item, i) => undocumented(item, prefix?.[i] ?? items, `${pointer}/${i}`))
  }
  if (!isObject(value)) return []
  const named = schemas.filter((s) => isObject(s.properties) || isObject(s.patternProperties))
  if (named.length === 0) return []
  const out: Difference[] = []
  const forbidden = schemas.some((s) => s.additionalProperties === false || s.unevaluatedProperties === false)
  for (const [key, field] of Object.entries(value)) {
    const property = schemas.map((s) => (isObject(s.properties) ? s.properties[key] : undefined)).find((p) => p !== undefined)
    const pattern = schemas.flatMap((s) => Object.entries(isObject(s.patternProperties) ? s.patternProperties : {})).find(([re]) => safeTest(re, key))?.[1]
    const map = schemas.map((s) => s.additionalProperties).find(isObject)
    const documentedBy = property ?? pattern ?? map
    if (documentedBy === undefined) {
      out.push({
        kind: 'undocumented',
        breaking: false,
        pointer: `${pointer}/${escape(key)}`,
        expected: 'not in the spec',
        got: typedValue(field),
        schemaSays: forbidden ? 'additionalProperties: false (the schema forbids fields it does not name)' : 'not named in properties',
      })
    } else out.push(...undocumented(field, documentedBy, `${pointer}/${escape(key)}`))
  }
  return out
}

function safeTest(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key)
  } catch {
    return false
  }
}
