// Matching captured requests to a spec's operations (event type from a header, else the body,
// else the endpoint's slug) and what the report counts: findings grouped by place across
// requests, event types never seen, event types the spec does not name.
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { checkContract, requestEventType } from '../../../electron/engine/contracts/check'
import type { ContractSpec } from '../../../electron/engine/contracts/model'
import type { TrafficRequest } from '../../../electron/engine/contracts/traffic'

const message = (eventType: string, schema: Record<string, unknown> | null, aliases: string[] = [eventType]) => ({ eventType, aliases, contentType: 'application/json', schema, examples: [] })
const NAMED = { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string' }, id: { type: 'string' } } }

const SPEC: ContractSpec = {
  location: 'spec.yaml',
  title: 'Test',
  version: '1',
  format: 'OpenAPI 3.1.0',
  dialect: 'draft-2020-12',
  nullableKeyword: false,
  digest: 'test',
  operations: [
    { name: 'user.created', slug: 'user-created', where: 'webhooks › user.created › post', signature: null, messages: [message('user.created', NAMED, ['user.created', 'userCreated'])] },
    { name: 'user.deleted', slug: 'user-deleted', where: 'webhooks › user.deleted › post', signature: null, messages: [message('user.deleted', NAMED)] },
  ],
}

let nextId = 1
const request = (body: unknown, options: { slug?: string; headers?: [string, string][]; raw?: string } = {}): TrafficRequest => ({
  id: nextId++,
  endpointSlug: options.slug ?? 'anything',
  method: 'POST',
  path: '/h/x',
  headers: options.headers ?? [],
  body: Buffer.from(options.raw ?? JSON.stringify(body)),
  bodyTruncated: false,
  refused: false,
})

describe('requestEventType', () => {
  it('reads a header first, then the body fields in order', () => {
    expect(requestEventType([['X-GitHub-Event', 'push']], { type: 'x' })).toBe('push')
    expect(requestEventType([], { event_type: 'a', type: 'b' })).toBe('b')
    expect(requestEventType([], { event: 'e' })).toBe('e')
    expect(requestEventType([], [1])).toBeNull()
  })
})

describe('checkContract', () => {
  it('matches by event type (any alias), else by endpoint slug, and groups a finding across requests', () => {
    nextId = 1
    const report = checkContract(SPEC, [
      request({ type: 'user.created', id: 'a' }),
      request({ type: 'userCreated' }),
      request({ type: 'user.created' }),
      request({ id: 'no type' }, { slug: 'user-deleted' }),
      request({ type: 'user.renamed', id: 'r' }),
      request({ id: 'nowhere' }),
      request(null, { raw: '' }),
    ])
    const created = report.operations[0]!
    expect(created.requestIds).toEqual([1, 2, 3])
    expect(created.findings).toEqual([{ kind: 'required', breaking: true, pointer: '/id', expected: 'required', got: 'missing', schemaSays: 'required: [type, id]', requestIds: [2, 3] }])
    // Matched by its endpoint; it has no type field, which the schema requires.
    expect(report.operations[1]!.requestIds).toEqual([4])
    expect(report.operations[1]!.findings.map((f) => f.pointer)).toEqual(['/type'])
    expect(report.unknownEventTypes).toEqual([{ eventType: 'user.renamed', requestIds: [5] }])
    expect(report.unmatchedRequestIds).toEqual([6])
    expect(report.traffic).toEqual({ read: 7, matched: 4, skipped: 1 })
    expect(report.breaking).toBe(2)
  })

  it('checks a request of an event type the spec does not name as the operation of its endpoint, with a note', () => {
    nextId = 1
    const report = checkContract(SPEC, [request({ type: 'user.renamed', id: 'r' }, { slug: 'user-created' })])
    expect(report.operations[0]!.requestIds).toEqual([1])
    expect(report.operations[0]!.notes).toEqual(['request #1 names its event type user.renamed, which the spec does not name; checked as user.created, the operation of the endpoint it arrived at'])
    expect(report.unknownEventTypes).toEqual([])
  })

  it('says which event types no request showed', () => {
    const report = checkContract(SPEC, [request({ type: 'user.created', id: 'a' })])
    expect(report.operations.map((o) => o.unseenEventTypes)).toEqual([[], ['user.deleted']])
    expect(report.unseenEventTypes).toBe(1)
    expect(report.breaking).toBe(0)
  })

  it('reads a compressed body as it was sent', () => {
    const body = gzipSync(JSON.stringify({ type: 'user.created', id: 'z' }))
    const report = checkContract(SPEC, [{ ...request(null), body, headers: [['Content-Encoding', 'gzip']] }])
    expect(report.operations[0]!.requestIds).toHaveLength(1)
    expect(report.operations[0]!.findings).toEqual([])
  })

  it('names a body stored cut short instead of checking it; its event type still counts as seen', () => {
    nextId = 1
    const report = checkContract(SPEC, [{ ...request({ type: 'user.deleted' }), bodyTruncated: true }])
    expect(report.operations[1]!.notes).toEqual(["request #1: its body was stored cut short (the endpoint's body limit), not checked"])
    expect(report.operations[1]!.unseenEventTypes).toEqual([])
    expect(report.operations[1]!.findings).toEqual([])
  })

  it('a body that is not JSON is breaking', () => {
    const report = checkContract(SPEC, [request(null, { raw: 'a=1&b=2', slug: 'user-created' })])
    expect(report.operations[0]!.findings).toMatchObject([{ kind: 'not-json', breaking: true, pointer: '' }])
  })

  it('picks the message that fits an operation of several when no event type names one', () => {
    const spec: ContractSpec = {
      ...SPEC,
      operations: [{ name: 'stock', slug: 'stock', where: 'operations › stock', signature: null, messages: [message('stock.changed', { type: 'object', required: ['qty'], properties: { qty: { type: 'integer' } } }), message('stock.gone', { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } })] }],
    }
    const report = checkContract(spec, [request({ sku: 'A' }, { slug: 'stock' })])
    expect(report.operations[0]!.findings).toEqual([])
    expect(report.operations[0]!.unseenEventTypes).toEqual(['stock.changed'])
  })
})
