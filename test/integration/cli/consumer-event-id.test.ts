// The id people have is the one their app saw: a Stripe delivery's `evt_…` (in the body), a
// Shopify delivery's X-Shopify-Webhook-Id. `hookloop deliveries` finds a delivery by it, labels the
// row with it and gives Hookloop's own id beside it; `--json` carries both.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import type { DeliveryListRow } from '../../../electron/engine/store/list-reads'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

let temp: ReturnType<typeof makeTempDir>
let dir: string
const sent: Record<'stripe' | 'shopify' | 'plain', { eventId: string; consumer: string | null }> = {} as never

beforeAll(async () => {
  temp = makeTempDir('hookloop-consumer-id-')
  dir = join(temp.dir, 'data')
  const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'inbox' })
    const target = { endpoint: 'inbox' }
    const stripe = await engine.putSubscription({ name: 'stripe', target, scheme: 'stripe', secrets: ['whsec_consumer_id_test'], policy: 'stripe', provider: 'stripe' })
    const shopify = await engine.putSubscription({ name: 'shopify', target, scheme: 'shopify', secrets: ['shopify-secret-for-the-test'], policy: 'shopify', provider: 'shopify' })
    const plain = await engine.putSubscription({ name: 'plain', target, scheme: 'standard-webhooks', secrets: [`whsec_${Buffer.from('a plain subscription secret 32b!').toString('base64')}`], policy: 'standard-webhooks' })
    const ids: number[] = []
    for (const [name, sub, type] of [['stripe', stripe, 'invoice.paid'], ['shopify', shopify, 'orders/create'], ['plain', plain, 'order.paid']] as const) {
      const result = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: type, payload: { id: 1 } })
      sent[name] = { eventId: result.eventId, consumer: null }
      ids.push(...result.deliveryIds)
    }
    for (let i = 0; i < 500 && !ids.every((id) => engine.isDeliverySettled(id)); i++) await new Promise((r) => setTimeout(r, 10))
    await engine.quiesce()
    const bodies = engine.db.prepare('SELECT body, headers_json FROM requests ORDER BY id').all() as { body: Buffer; headers_json: string }[]
    sent.stripe.consumer = (JSON.parse(bodies[0]!.body.toString('utf8')) as { id: string }).id
    sent.shopify.consumer = (JSON.parse(bodies[1]!.headers_json) as [string, string][]).find(([name]) => name.toLowerCase() === 'x-shopify-webhook-id')![1]
  } finally {
    await engine.close()
  }
}, 60_000)
afterAll(() => temp.cleanup())

async function deliveries(...args: string[]): Promise<DeliveryListRow[]> {
  const result = await runCli(['deliveries', '--data', dir, '--json', ...args])
  expect(result.stderr).toBe('')
  return (JSON.parse(result.stdout) as { deliveries: DeliveryListRow[] }).deliveries
}

describe('the id the consumer saw', () => {
  it('finds a delivery by the evt_ id in its Stripe body, or the X-Shopify-Webhook-Id header, in any case', async () => {
    expect(sent.stripe.consumer).toMatch(/^evt_/)
    const byStripe = await deliveries('--event-id', sent.stripe.consumer!.slice(0, 10).toUpperCase())
    expect(byStripe.map((d) => [d.subscriptionName, d.eventId, d.consumerEventId])).toEqual([['stripe', sent.stripe.eventId, sent.stripe.consumer]])
    const byShopify = await deliveries('--event-id', sent.shopify.consumer!)
    expect(byShopify.map((d) => d.subscriptionName)).toEqual(['shopify'])
    // Hookloop's own id still finds each; a delivery in Hookloop's own shape has no other id.
    expect((await deliveries('--event-id', sent.stripe.eventId)).map((d) => d.subscriptionName)).toEqual(['stripe'])
    expect((await deliveries('--event-id', sent.plain.eventId)).map((d) => [d.subscriptionName, d.consumerEventId])).toEqual([['plain', null]])
  })

  it("labels the row with the consumer's id and gives Hookloop's beside it", async () => {
    const table = await runCli(['deliveries', '--data', dir, '--subscription', 'stripe'])
    const [head, row] = table.stdout.split('\n')
    expect(head).toMatch(/^ID\s+CREATED\s+SUBSCRIPTION\s+EVENT ID\s+HOOKLOOP ID\s+TYPE\s+STATUS/)
    expect(row).toMatch(new RegExp(`\\s+stripe\\s+${sent.stripe.consumer}\\s+${sent.stripe.eventId}\\s+invoice\\.paid\\s+`))
    const plain = await runCli(['deliveries', '--data', dir, '--subscription', 'plain'])
    expect(plain.stdout.split('\n')[1]).toMatch(new RegExp(`\\s+plain\\s+${sent.plain.eventId}\\s+-\\s+order\\.paid\\s+`))
  })

  it('exports carry it beside Hookloop\'s id: HAR entries and case files', async () => {
    const [stripe] = await deliveries('--subscription', 'stripe')
    const har = await runCli(['export', '--data', dir, '--format', 'har', '--deliveries', String(stripe!.id)])
    expect(har.code, har.stderr).toBe(0)
    const entries = (JSON.parse(har.stdout) as { log: { entries: { _hookloop: { event_id: string; consumer_event_id?: string } }[] } }).log.entries
    expect(entries.map((e) => [e._hookloop.event_id, e._hookloop.consumer_event_id])).toEqual([[sent.stripe.eventId, sent.stripe.consumer]])
    const caseFile = await runCli(['export', '--data', dir, '--format', 'case', '--deliveries', String(stripe!.id)])
    expect(caseFile.code, caseFile.stderr).toBe(0)
    expect((JSON.parse(caseFile.stdout) as { deliveries: { event_id: string; consumer_event_id?: string }[] }).deliveries).toMatchObject([{ event_id: sent.stripe.eventId, consumer_event_id: sent.stripe.consumer }])
  })
})
