// `contract add`'s endpoints through a real receiver's definitions on a real SQLite file: one per
// operation with the scheme the spec declares; an endpoint with the slug already there is updated
// (name and scheme from the spec, its secrets and rules kept), and a second run changes nothing.
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { loadContract, putContractEndpoints } from '../../../electron/engine/contracts'
import { createReceiver, type Receiver } from '../../../electron/engine/receiver'
import { openDatabase } from '../../../electron/engine/store'
import { REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const SHOP = join(REPO_ROOT, 'test/fixtures/contracts/shop-webhooks.openapi-3.1.yaml')
const INVENTORY = join(REPO_ROOT, 'test/fixtures/contracts/inventory.asyncapi-3.0.yaml')

let temp: ReturnType<typeof makeTempDir>
let db: ReturnType<typeof openDatabase>
let receiver: Receiver

beforeEach(async () => {
  temp = makeTempDir('hookloop-contract-endpoints-')
  db = openDatabase({ file: join(temp.dir, 'hookloop.db') })
  receiver = await createReceiver({ db, clock: createRealClock(), port: 0, keepProcessAlive: false })
})
afterEach(async () => {
  await receiver.close()
  db.close()
  temp.cleanup()
})

describe('putContractEndpoints', () => {
  it('updates an endpoint with the slug already there, keeping its secrets and rules, and then changes nothing', async () => {
    const before = await receiver.endpoints.create({ slug: 'order-created', name: 'mine', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], dedupe: 'standard-webhooks' })
    await receiver.rules.add(before.id, { preset: 'fail-first', n: 2 })
    const spec = await loadContract(SHOP)
    expect((await putContractEndpoints(receiver.endpoints, spec)).map((e) => [e.slug, e.action, e.scheme])).toEqual([
      ['order-created', 'updated', 'standard-webhooks'],
      ['order-cancelled', 'created', 'standard-webhooks'],
    ])
    const after = receiver.endpoints.list().find((e) => e.slug === 'order-created')!
    expect([after.id, after.name, after.secrets, after.dedupe]).toEqual([before.id, 'order.created', before.secrets, { type: 'header', name: 'webhook-id' }])
    expect(receiver.rules.list(before.id)).toHaveLength(1)
    expect((await putContractEndpoints(receiver.endpoints, spec)).map((e) => e.action)).toEqual(['unchanged', 'unchanged'])
    expect(receiver.endpoints.list()).toHaveLength(2)
  })

  it("maps an AsyncAPI header security scheme to Hookloop's scheme; the new endpoint finds its event id on its own", async () => {
    const made = await putContractEndpoints(receiver.endpoints, await loadContract(INVENTORY))
    expect(made.map((e) => [e.slug, e.scheme, e.schemeFrom])).toEqual([
      ['on-stock-changed', 'github', 'security scheme github (header X-Hub-Signature-256)'],
      ['on-stock-depleted', 'github', 'security scheme github (header X-Hub-Signature-256)'],
    ])
    expect(receiver.endpoints.list().map((e) => e.dedupe)).toEqual([{ type: 'auto' }, { type: 'auto' }])
  })
})
