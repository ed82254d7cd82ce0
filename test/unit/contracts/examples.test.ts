// Example bodies per event type: the spec's own example first, else a value made from the schema
// that the schema accepts; a file name that stays inside its folder.
import { describe, expect, it } from 'vitest'
import { createBodyChecker } from '../../../electron/engine/payload-schemas/drift'
import { exampleFileName, exampleFromSchema, exampleOf } from '../../../electron/engine/contracts/examples'

const SCHEMA = {
  type: 'object',
  required: ['type', 'at', 'amount', 'tags', 'status'],
  properties: {
    type: { const: 'invoice.paid' },
    at: { type: 'string', format: 'date-time' },
    amount: { type: 'integer', minimum: 1 },
    tags: { type: 'array', items: { type: 'string' } },
    status: { type: 'string', enum: ['open', 'paid'] },
    customer: { allOf: [{ type: 'object', properties: { id: { type: 'string', format: 'uuid' } } }, { type: 'object', properties: { email: { type: 'string', format: 'email' } } }] },
    note: { type: ['string', 'null'], default: null },
  },
}

describe('examples', () => {
  it("prefers the spec's own example", () => {
    expect(exampleOf({ eventType: 'x', aliases: ['x'], contentType: null, schema: SCHEMA, examples: [{ mine: true }] })).toEqual({ body: { mine: true }, from: 'spec' })
  })

  it('makes a body from the schema that the schema accepts', () => {
    const body = exampleFromSchema(SCHEMA)
    expect(body).toEqual({ type: 'invoice.paid', at: '2026-01-01T00:00:00Z', amount: 1, tags: ['string'], status: 'open', customer: { id: '00000000-0000-4000-8000-000000000000', email: 'user@example.com' }, note: null })
    expect(createBodyChecker(SCHEMA, 'draft-2020-12', false).check(body)).toEqual([])
  })

  it('stops at a depth on a schema that refers to itself', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} }
    ;(node.properties as Record<string, unknown>).child = node
    expect(JSON.stringify(exampleFromSchema(node))).toContain('"child":null')
  })

  it('names a file for an event type that stays in its folder', () => {
    expect(exampleFileName('order.created')).toBe('order.created.json')
    expect(exampleFileName('../../etc/passwd')).toBe('__.._etc_passwd.json')
    expect(exampleFileName('stock/changed')).toBe('stock_changed.json')
  })
})
