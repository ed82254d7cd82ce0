// `hookloop mcp` names an event by the id its consumer saw: list_rows finds a Stripe delivery by its
// evt_… and gives it beside Hookloop's id, show_delivery says where the consumer reads it, and
// show_request says where an endpoint's automatic key found the event id.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { makeTempDir } from '../../support/temp-dir'
import { startMcp, type McpSession } from './support'

const temp = makeTempDir('hookloop-mcp-ids-')
const dataDir = join(temp.dir, 'data')
let consumerId = ''
let hookloopId = ''
let session: McpSession | undefined

beforeAll(async () => {
  const engine = await createEngine({ dataDir, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'inbox', dedupe: 'auto' })
    const stripe = await engine.putSubscription({ name: 'stripe', target: { endpoint: 'inbox' }, scheme: 'stripe', secrets: ['whsec_mcp_consumer_id'], policy: 'stripe', provider: 'stripe' })
    const sent = await engine.sendEvent({ subscriptionIds: [stripe.id], eventType: 'invoice.paid', payload: { id: 1 } })
    hookloopId = sent.eventId
    for (let i = 0; i < 500 && !engine.isDeliverySettled(sent.deliveryIds[0]!); i++) await new Promise((r) => setTimeout(r, 10))
    const answer = await fetch(engine.receiver.endpointUrl('inbox'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event_id":"e-mcp-1","event_type":"booking.created","payload":{}}' })
    await answer.arrayBuffer()
    await engine.quiesce()
    consumerId = (engine.db.prepare('SELECT consumer_event_id FROM deliveries').pluck().get() as string) ?? ''
  } finally {
    await engine.close()
  }
  session = await startMcp(['--data', dataDir])
}, 60_000)

afterAll(async () => {
  await session?.close()
  temp.cleanup()
})

describe('hookloop mcp and the ids people have', () => {
  it('list_rows finds a delivery by the evt_ id its consumer saw, with both ids', async () => {
    expect(consumerId).toMatch(/^evt_/)
    const found = await session!.json<{ rows: { kind: string; eventId: string; consumerEventId: string | null; deliveryId: number }[] }>('list_rows', { search: consumerId.slice(0, 9) })
    expect(found.rows.map((r) => [r.kind, r.eventId, r.consumerEventId])).toEqual([['delivery', hookloopId, consumerId]])
    const delivery = await session!.json<{ eventId: string; consumerEventId: { value: string; where: string } }>('show_delivery', { id: found.rows[0]!.deliveryId })
    expect(delivery).toMatchObject({ eventId: hookloopId, consumerEventId: { value: consumerId, where: 'body.id' } })
  })

  it('show_request says where the automatic key found the event id', async () => {
    const found = await session!.json<{ rows: { requestIds: number[] }[] }>('list_rows', { search: 'e-mcp-1' })
    const request = await session!.json<{ dedupeKey: string; dedupeKeyFrom: string }>('show_request', { id: found.rows[0]!.requestIds[0] })
    expect(request).toMatchObject({ dedupeKey: 'e-mcp-1', dedupeKeyFrom: 'auto: body.event_id' })
  })
})
