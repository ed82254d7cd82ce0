// A replay keeps the symptom support is reproducing: a request whose signature did not match when
// it arrived is re-signed with a stand-in wrong secret, not the secret given, so the target judges
// it a mismatch again, while the request that verified then verifies again. Real engines, real
// sockets, a redacted case file and a HAR in between.
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportSelection, parseImportFile, replayItems } from '../../../electron/engine/exports'
import { sign } from '../../../electron/engine/signatures'
import { storeOfDatabase } from '../../../electron/engine/store'
import { newEngine } from './support'

const SECRET = `whsec_${randomBytes(24).toString('base64')}`
const WRONG = `whsec_${randomBytes(24).toString('base64')}`
const SUPPORT_SECRET = `whsec_${randomBytes(24).toString('base64')}`

let capture: Awaited<ReturnType<typeof newEngine>>
let target: Awaited<ReturnType<typeof newEngine>>
let requestIds: number[]
beforeAll(async () => {
  capture = await newEngine()
  await capture.engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: [SECRET] })
  // The customer's sender: one request signed with the right secret, one with a wrong one.
  for (const secret of [SECRET, WRONG]) {
    const body = Buffer.from(JSON.stringify({ type: 'order.paid', id: randomUUID() }))
    const headers = sign('standard-webhooks', { body, secret, id: `msg_${randomUUID()}` })
    await (await fetch(capture.engine.receiver.endpointUrl('shop'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body })).arrayBuffer()
  }
  await capture.engine.quiesce()
  requestIds = capture.engine.receiver.requests.list({ limit: 10 }).map((r) => r.id).sort((a, b) => a - b)
  expect(capture.engine.receiver.requests.list({ limit: 10 }).sort((a, b) => a.id - b.id).map((r) => r.verify?.reason)).toEqual(['ok', 'signature_mismatch'])
  target = await newEngine()
  await target.engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: [SUPPORT_SECRET] })
})
afterAll(async () => {
  await capture?.close()
  await target?.close()
})

describe('replaying a redacted export of a signature mismatch, re-signed', () => {
  for (const format of ['case', 'har'] as const) {
    it(`${format}: the mismatch is signed with a stand-in wrong secret and fails again; the result says so`, async () => {
      const text = await exportSelection(storeOfDatabase(capture.engine.db), { format, requestIds, keepSecrets: false, now: Date.now() })
      expect(text).not.toContain(SECRET)
      const { items } = parseImportFile(text)
      const before = target.engine.receiver.requests.list({ limit: 100 }).length
      const results = await replayItems(items, { to: target.engine.receiver.endpointUrl('shop'), resign: { scheme: 'standard-webhooks', secret: SUPPORT_SECRET } })
      expect(results.map((r) => r.signed_with_stand_in)).toEqual([false, true])
      await target.engine.quiesce()
      const replayed = target.engine.receiver.requests.list({ limit: 100 }).sort((a, b) => a.id - b.id).slice(before)
      expect(replayed.map((r) => r.verify?.reason)).toEqual(['ok', 'signature_mismatch'])
    })
  }
})

describe("replaying a case file of loop deliveries", () => {
  it('sends each exchange once, as its attempt, with the verdict the request it made got', async () => {
    const loop = await newEngine()
    try {
      await loop.engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: [SECRET] })
      const sub = await loop.engine.putSubscription({ name: 'orders', target: { endpoint: 'shop' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'csku' })
      const deliveryIds: number[] = []
      for (const faults of [[], [{ type: 'corrupt-signature' as const }]]) {
        const sent = await loop.engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: randomUUID() }, faults })
        deliveryIds.push(...sent.deliveryIds)
      }
      for (let i = 0; i < 500 && !deliveryIds.every((id) => loop.engine.isDeliverySettled(id)); i++) await new Promise((r) => setTimeout(r, 10))
      await loop.engine.quiesce()
      const requests = loop.engine.receiver.requests.list({ limit: 10 }).sort((a, b) => a.id - b.id)
      expect(requests.map((r) => r.verify?.reason)).toEqual(['ok', 'signature_mismatch'])
      const text = await exportSelection(storeOfDatabase(loop.engine.db), { format: 'case', requestIds: requests.map((r) => r.id), deliveryIds, keepSecrets: false, now: Date.now() })
      const { items } = parseImportFile(text)
      expect(items.map((i) => [i.label, i.original_verify?.reason])).toEqual([
        [`delivery ${deliveryIds[0]} attempt 1`, 'ok'],
        [`delivery ${deliveryIds[1]} attempt 1`, 'signature_mismatch'],
      ])
      const before = target.engine.receiver.requests.list({ limit: 100 }).length
      const results = await replayItems(items, { to: target.engine.receiver.endpointUrl('shop'), resign: { scheme: 'standard-webhooks', secret: SUPPORT_SECRET } })
      expect(results.map((r) => r.signed_with_stand_in)).toEqual([false, true])
      await target.engine.quiesce()
      expect(target.engine.receiver.requests.list({ limit: 100 }).sort((a, b) => a.id - b.id).slice(before).map((r) => r.verify?.reason)).toEqual(['ok', 'signature_mismatch'])
    } finally {
      await loop.close()
    }
  })
})
