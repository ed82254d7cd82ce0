import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { squareEvents } from '../../../../shared/event-catalog/square'
import { PROVIDERS } from '../../../../shared/providers'
import { nodeModulesPath, noErrorsFor } from './support/type-check'
import { catalogBody } from './support/catalog-body'

// Every Square catalog event, as the whole notification body, against the `square` package's own
// wire schemas (its serialization layer, which reads Square's snake_case JSON into the SDK's
// types: `PaymentCreatedEvent` …, at the Square-Version the package is generated for). A field
// Square does not have, a value of the wrong type or an unknown enum value fails.

interface ParseResult {
  ok: boolean
  errors?: { path: string[]; message: string }[]
}
interface WireSchema {
  parse(raw: unknown, options: { unrecognizedObjectKeys: 'fail'; allowUnrecognizedEnumValues: false; allowUnrecognizedUnionMembers: false; breadcrumbsPrefix: string[] }): ParseResult
}

// The package's exports do not name its serialization layer: it is loaded from its file.
const serialization = createRequire(import.meta.url)(nodeModulesPath('square/serialization/index.js')) as Record<string, WireSchema>

/** The square package's schema of each catalog event's whole body. */
const EVENT_SCHEMAS: Record<string, string> = {
  'payment.created': 'PaymentCreatedEvent',
  'payment.updated': 'PaymentUpdatedEvent',
  'refund.created': 'RefundCreatedEvent',
  'order.created': 'OrderCreatedEvent',
  'customer.created': 'CustomerCreatedEvent',
}

const squareBody = (type: string) => catalogBody<{ data: { object: Record<string, Record<string, unknown>> } }>('square', type, PROVIDERS.square.apiVersions?.[0])

function problems(type: string, body: unknown): string[] {
  const schema = serialization[EVENT_SCHEMAS[type] ?? '']
  if (!schema) return [`no square schema for ${type}`]
  const result = schema.parse(body, { unrecognizedObjectKeys: 'fail', allowUnrecognizedEnumValues: false, allowUnrecognizedUnionMembers: false, breadcrumbsPrefix: [] })
  return result.ok ? [] : (result.errors ?? []).map((e) => `${e.path.join('.')}: ${e.message}`)
}

describe('Square catalog events and the square package\u2019s schemas', () => {
  it('the pack\u2019s API versions are the Square-Version the square package is generated for', async () => {
    const { SquareClient } = await import('square')
    // The client sends its generated Square-Version unless told another: a local server reads it.
    let sent: string | undefined
    const server = createServer((req, res) => {
      sent = req.headers['square-version'] as string | undefined
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"locations":[]}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const client = new SquareClient({ token: 'hookloop', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
      await client.locations.list()
    } finally {
      server.close()
    }
    expect(PROVIDERS.square.apiVersions).toEqual([sent])
  })

  it('every catalog event, as the whole body, parses with the square package\u2019s schema of its type', () => {
    expect(Object.fromEntries(squareEvents.map((e) => [e.type, problems(e.type, squareBody(e.type))]))).toEqual(noErrorsFor(squareEvents))
  })

  it('the check refuses an unknown field and a value of the wrong type', () => {
    const body = squareBody('payment.created')
    body.data.object.payment!.amount_money = '1500'
    body.data.object.payment!.tip = 1
    expect(problems('payment.created', body).join(' ')).toMatch(/amount_money.*tip|tip.*amount_money/s)
  })

  it('ids agree within an event: data.id is the object\u2019s id', () => {
    const body = squareBody('payment.updated') as unknown as { data: { id: string; object: { payment: { id: string } } } }
    expect(body.data.object.payment.id).toBe(body.data.id)
  })
})
