// hookloop/testing and the schema verdict: real GitHub deliveries to a test receiver come back
// from nextRequest() with their schema verdict, and each runner's idiom asserts it: the matcher
// for vitest and Jest (expect.extend), the assertion for node:test.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { assertProviderSchema, hookloopMatchers, startReceiver, type ReceivedRequest, type TestReceiver } from '../../../electron/testing'
import { closedPullRequest, githubHeaders, withoutHeadRepo } from '../../support/github-deliveries'
import { REPO_ROOT } from '../../support/run-cli'

expect.extend(hookloopMatchers)
declare module 'vitest' {
  interface Assertion {
    toMatchProviderSchema(): void
  }
}

const SECRET = 'github-secret'
let receiver: TestReceiver | undefined
afterEach(async () => {
  await receiver?.close()
  receiver = undefined
})

async function received(payload: unknown): Promise<ReceivedRequest> {
  const body = JSON.stringify(payload)
  const headers = githubHeaders(body, SECRET)
  const answer = await fetch(receiver!.endpointUrl('github'), { method: 'POST', body, headers })
  expect(answer.status).toBe(200)
  return receiver!.nextRequest({ eventId: headers['x-github-delivery']! })
}

describe('toMatchProviderSchema', () => {
  it('a real delivery matches GitHub\u2019s schema; without pull_request.head.repo it does not, and says where', async () => {
    receiver = await startReceiver({ endpoints: [{ slug: 'github', scheme: 'github', secrets: [SECRET], dedupe: 'github' }] })
    const valid = await received(closedPullRequest())
    expect(valid.schema).toMatchObject({ verdict: 'valid', schema: 'pull-request-closed' })
    expect(valid).toMatchProviderSchema()
    assertProviderSchema(valid)

    const invalid = await received(withoutHeadRepo())
    expect(invalid).not.toMatchProviderSchema()
    expect(() => expect(invalid).toMatchProviderSchema()).toThrow(/\/pull_request\/head\/repo: expected required, got missing/)
    expect(() => assertProviderSchema(invalid)).toThrow(/does not match pull-request-closed of GitHub webhooks OpenAPI/)
  })

  it('a request of an endpoint that verifies no provider has no verdict, and the matcher says so', async () => {
    receiver = await startReceiver({ endpoints: [{ slug: 'plain' }] })
    await (await fetch(receiver.endpointUrl('plain'), { method: 'POST', body: '{}' })).arrayBuffer()
    const request = await receiver.nextRequest()
    expect(request.schema).toBeNull()
    expect(() => assertProviderSchema(request)).toThrow(/verifies no provider's scheme/)
  })

  it('an endpoint given a contract is judged against its spec\u2019s operation', async () => {
    const spec = join(REPO_ROOT, 'test/fixtures/contracts/shop-webhooks.openapi-3.1.yaml')
    receiver = await startReceiver({ endpoints: [{ slug: 'orders', contract: { spec, operation: 'order.created' } }] })
    const order = { type: 'order.created', id: 'evt_1', data: { order_id: 'ord_1', status: 'paid', total: '19.90', customer: { email: 'ada@example.com' } } }
    await (await fetch(receiver.endpointUrl('orders'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) })).arrayBuffer()
    const request = await receiver.nextRequest()
    expect(request.schema).toMatchObject({ verdict: 'invalid', source: 'Shop webhooks 1.2.0 (OpenAPI 3.1.0)', schema: 'order.created' })
    expect(() => expect(request).toMatchProviderSchema()).toThrow(/\/data\/total: expected number/)
  })
})
