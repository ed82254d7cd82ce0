// An example body per event type: the spec's own first example, else one made from the schema
// (const, default, the schema's examples, an enum's first value, then a value of its type).
import type { ContractMessage } from './model'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
}

const MAX_DEPTH = 12

/** A value the schema accepts in the common cases; recursive schemas stop at MAX_DEPTH. */
export function exampleFromSchema(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return null
  if (schema.const !== undefined) return schema.const
  if (schema.default !== undefined) return schema.default
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if (schema.example !== undefined) return schema.example
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const branches = Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []
    if (branches.length === 0) continue
    if (key !== 'allOf') return exampleFromSchema(branches[0], depth + 1)
    const merged: Json = {}
    for (const branch of branches) {
      const part = exampleFromSchema(branch, depth + 1)
      if (isObject(part)) Object.assign(merged, part)
    }
    return merged
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type ?? (isObject(schema.properties) ? 'object' : schema.items ? 'array' : undefined)) {
    case 'object': {
      const out: Json = {}
      for (const [key, property] of Object.entries(isObject(schema.properties) ? schema.properties : {})) out[key] = exampleFromSchema(property, depth + 1)
      return out
    }
    case 'array':
      return schema.items ? [exampleFromSchema(schema.items, depth + 1)] : []
    case 'string':
      return typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format] ? FORMAT_EXAMPLES[schema.format] : typeof schema.minLength === 'number' ? 'x'.repeat(schema.minLength) : 'string'
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 0
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return null
  }
}

export function exampleOf(message: ContractMessage): { body: unknown; from: 'spec' | 'schema' } {
  if (message.examples.length > 0) return { body: message.examples[0], from: 'spec' }
  return { body: exampleFromSchema(message.schema), from: 'schema' }
}

/** A file name for an event type's example: "order.created" → "order.created.json". */
export function exampleFileName(eventType: string): string {
  return `${eventType.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || 'event'}.json`
}
