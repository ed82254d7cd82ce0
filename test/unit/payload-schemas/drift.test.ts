// Each difference between a body and its schema, classified: breaking (required, type, enum,
// const) or not (undocumented, constraint), with where, what was expected, what came and the
// schema's own words.
import { describe, expect, it } from 'vitest'
import { createBodyChecker, UnusableSchemaError } from '../../../electron/engine/payload-schemas/drift'

const ORDER = {
  type: 'object',
  required: ['id', 'status', 'customer'],
  properties: {
    id: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'paid'], description: 'Where the order stands' },
    total: { type: 'number' },
    customer: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email', description: "The customer's email" } } },
    lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
    meta: { type: 'object', additionalProperties: { type: 'string' } },
  },
}

const check = (body: unknown, schema: Record<string, unknown> = ORDER, dialect: 'draft-2020-12' | 'draft-07' = 'draft-2020-12', nullable = false) =>
  createBodyChecker(schema, dialect, nullable).check(body)

describe('createBodyChecker', () => {
  it('finds nothing in a body that matches', () => {
    expect(check({ id: 'o1', status: 'paid', total: 3, customer: { email: 'a@example.com' }, lines: [{ sku: 'A' }], meta: { any: 'x' } })).toEqual([])
  })

  it('a required field missing is breaking, at its own pointer, in the field\'s own words', () => {
    expect(check({ id: 'o1', status: 'paid', customer: {} })).toEqual([
      { kind: 'required', breaking: true, pointer: '/customer/email', expected: 'required', got: 'missing', schemaSays: "The customer's email" },
    ])
  })

  it('a type that differs and a value outside the enum are breaking', () => {
    const found = check({ id: 7, status: 'refunded', customer: { email: 'a@example.com' } })
    expect(found).toEqual([
      { kind: 'type', breaking: true, pointer: '/id', expected: 'string', got: 'integer 7', schemaSays: 'type: string' },
      { kind: 'enum', breaking: true, pointer: '/status', expected: 'one of pending, paid', got: '"refunded"', schemaSays: 'Where the order stands' },
    ])
  })

  it('a const is an enum of one: breaking', () => {
    expect(check({ type: 'order.paid' }, { type: 'object', properties: { type: { const: 'order.created' } } })).toEqual([
      { kind: 'enum', breaking: true, pointer: '/type', expected: '"order.created"', got: '"order.paid"', schemaSays: 'const: "order.created"' },
    ])
  })

  it('fields the spec does not name are undocumented, not breaking, even where the schema allows them, in arrays too', () => {
    const found = check({ id: 'o1', status: 'paid', customer: { email: 'a@example.com', phone: '1' }, lines: [{ sku: 'A', qty: 2 }], meta: { free: 'form' }, coupon: null })
    expect(found.map((d) => [d.kind, d.breaking, d.pointer, d.got])).toEqual([
      ['undocumented', false, '/customer/phone', 'string "1"'],
      ['undocumented', false, '/lines/0/qty', 'integer 2'],
      ['undocumented', false, '/coupon', 'null'],
    ])
  })

  it('where the schema forbids extra fields they are still undocumented (not breaking), and it says the schema forbids them', () => {
    const [found] = check({ a: 1, b: 2 }, { type: 'object', additionalProperties: false, properties: { a: { type: 'integer' } } })
    expect(found).toMatchObject({ kind: 'undocumented', breaking: false, pointer: '/b', schemaSays: 'additionalProperties: false (the schema forbids fields it does not name)' })
  })

  it('other keywords a value misses (format, bounds) are constraints, not breaking', () => {
    const found = check({ n: 0, email: 'not-an-email' }, { type: 'object', properties: { n: { type: 'integer', minimum: 1 }, email: { type: 'string', format: 'email' } } })
    expect(found.map((d) => [d.kind, d.breaking, d.pointer, d.expected])).toEqual([
      ['constraint', false, '/n', 'must be >= 1'],
      ['constraint', false, '/email', 'must match format "email"'],
    ])
  })

  it("reads the fields of every branch of allOf/oneOf as documented, and reports a oneOf no branch fits once", () => {
    const schema = { oneOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, { type: 'object', required: ['b'], properties: { b: { type: 'string' } } }] }
    expect(check({ a: 'x' }, schema)).toEqual([])
    expect(check({ c: 1 }, schema).map((d) => [d.kind, d.pointer])).toEqual([
      ['constraint', ''],
      ['undocumented', '/c'],
    ])
  })

  it("reads OpenAPI 3.0's nullable as a type that also takes null", () => {
    const schema = { type: 'object', properties: { note: { type: 'string', nullable: true } } }
    expect(check({ note: null }, schema, 'draft-07', true)).toEqual([])
    expect(check({ note: null }, schema, 'draft-07', false).map((d) => d.kind)).toEqual(['type'])
  })

  it('refuses a schema that refers to itself, saying so', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} }
    ;(node.properties as Record<string, unknown>).child = node
    expect(() => createBodyChecker(node, 'draft-2020-12', false)).toThrow(UnusableSchemaError)
  })

  it('a whole body of the wrong type is one breaking difference at the root', () => {
    expect(check([1, 2])).toMatchObject([{ kind: 'type', breaking: true, pointer: '', expected: 'object', got: 'array [1,2]' }])
  })
})
