// A real engine with one verifying endpoint, a rule that refuses one event type, and a few signed
// requests captured on it (a JSON one, a refused one, a binary one with NUL bytes), plus one
// loop-mode delivery: what the export tests export, import and replay.
import { randomBytes, randomUUID } from 'node:crypto'
import { createEngine, type Engine } from '../../../electron/engine/engine'
import { sign } from '../../../electron/engine/signatures'
import { makeTempDir } from '../../support/temp-dir'

export const SECRET = `whsec_${randomBytes(24).toString('base64')}`
export const RESIGN_SECRET = `whsec_${randomBytes(24).toString('base64')}`
export const SUBSCRIPTION_SECRET = `whsec_${randomBytes(24).toString('base64')}`
export const BEARER = 'Bearer tok_9f8e7d6c5b4a39281716'

export const RULES = [{ matchers: [{ type: 'event-type', value: 'order.refused' }], steps: [{ type: 'reply', status: 422, body: 'refused' }] }]

export interface Fixture {
  engine: Engine
  dir: string
  requestIds: number[]
  deliveryIds: number[]
  /** Every signature header value that was sent. */
  signatures: string[]
  bodies: Buffer[]
  close(): Promise<void>
}

export async function newEngine(): Promise<{ engine: Engine; dir: string; close: () => Promise<void> }> {
  const temp = makeTempDir('hookloop-export-')
  const engine = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
  return {
    engine,
    dir: temp.dir,
    close: async () => {
      await engine.close()
      temp.cleanup()
    },
  }
}

export async function createFixture(): Promise<Fixture> {
  const { engine, dir, close } = await newEngine()
  await engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks', rules: RULES })
  // A rule for every endpoint (it never matches here): a case file carries it too.
  await engine.receiver.rules.add(null, { name: 'teapot on demand', matchers: [{ type: 'header', name: 'x-teapot' }], steps: [{ type: 'reply', status: 418 }] })
  const bodies = [
    Buffer.from(JSON.stringify({ event_type: 'order.paid', payload: { id: 1, note: "it's \"quoted\" $HOME `x` \\ ünï" } })),
    Buffer.from(JSON.stringify({ event_type: 'order.refused', payload: { id: 2 } })),
    Buffer.from([0x00, 0xff, 0x27, 0x0a, 0x5c, 0x41, 0x00, 0x80]),
  ]
  const signatures: string[] = []
  for (const body of bodies) {
    const headers = sign('standard-webhooks', { body, secret: SECRET, id: `msg_${randomUUID()}` })
    signatures.push(headers['webhook-signature']!)
    const response = await fetch(engine.receiver.endpointUrl('shop'), {
      method: 'POST',
      headers: { ...headers, 'content-type': body[0] === 0x7b ? 'application/json' : 'application/octet-stream', authorization: BEARER, cookie: 'session=abc123def456' },
      body,
    })
    await response.arrayBuffer()
  }
  // A retired subscription secret signs nothing, and still must not leak from the setup.
  const sub = await engine.putSubscription({ name: 'loop', target: { endpoint: 'shop' }, scheme: 'standard-webhooks', secrets: [SECRET, SUBSCRIPTION_SECRET], policy: 'csku' })
  const sent = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: 3 } })
  for (let i = 0; i < 500 && !engine.isDeliverySettled(sent.deliveryIds[0]!); i++) await new Promise((r) => setTimeout(r, 10))
  await engine.quiesce()
  const requestIds = engine.receiver.requests.list({ limit: 100 }).filter((r) => r.attemptId === null).map((r) => r.id).sort((a, b) => a - b)
  for (const row of engine.receiver.requests.list({ limit: 100 })) {
    const signature = row.headers.find(([n]) => n === 'webhook-signature')?.[1]
    if (signature && !signatures.includes(signature)) signatures.push(signature)
  }
  return { engine, dir, requestIds, deliveryIds: sent.deliveryIds, signatures, bodies, close }
}
