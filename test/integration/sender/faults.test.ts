import { describe, expect, it } from 'vitest'
import type { SendFaultInput } from '../../../shared/sender'
import { verify } from '../../../electron/engine/signatures'
import { answer, linkedAttemptId, senderWithServer, type Captured, type SenderRig, type TestServer } from './support'
import { createCountReads } from '../../../electron/engine/store/counts'

// Sending-side faults, each checked from the consumer's side (what verify() says about what
// arrived) and from the sender's record (the attempt says which fault it carried).

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const RETIRED = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

describe('sending-side faults', () => {
  let rig: SenderRig
  let server: TestServer
  const start = senderWithServer()

  async function send(faults: SendFaultInput[], events = 1) {
    ;({ rig, server } = await start({ start: 1_700_000_000_000 }, answer(200)))
    const { sender } = rig
    await sender.createSubscription({ id: 'f', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'pandoktorek', secrets: [SECRET, RETIRED] })
    const published = []
    for (let i = 0; i < events; i++) published.push(await sender.publish({ eventType: 'booking.created', payload: { i }, faults: i === 0 ? faults : [] }))
    await sender.settled()
    return published
  }

  const verdict = (r: Captured | undefined, secret = SECRET) =>
    verify('standard-webhooks', { body: r!.body, headers: r!.headers, secrets: [secret], now: Math.floor(Date.now() / 1000) }) // a URL target on a virtual clock is signed at wall time

  const cases: Array<[SendFaultInput, string]> = [
    [{ type: 'wrong-secret' }, 'signature_mismatch'],
    [{ type: 'corrupt-signature' }, 'signature_mismatch'],
    [{ type: 'stale-timestamp', by_s: 600 }, 'timestamp_too_old'],
    [{ type: 'future-timestamp', by_s: 600 }, 'timestamp_too_new'],
  ]
  for (const [fault, reason] of cases) {
    it(`${fault.type} → the consumer sees ${reason}; the attempt records the fault`, async () => {
      const [published] = await send([fault])
      expect(verdict(server.requests[0])).toMatchObject({ valid: false, reason })
      const { attempts } = await rig.sender.getDelivery(published!.deliveries[0]!.id)
      expect(attempts[0]?.faults.map((f) => f.type)).toEqual([fault.type])
    })
  }

  it('rotated-secret → invalid with the current secret, valid with the one rotated out', async () => {
    await send([{ type: 'rotated-secret' }])
    expect(verdict(server.requests[0])).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(verdict(server.requests[0], RETIRED).valid).toBe(true)
  })

  it('without a fault the signature verifies and the event id is in body and header', async () => {
    const [published] = await send([])
    const request = server.requests[0]!
    expect(verdict(request).valid).toBe(true)
    expect(request.headers['webhook-id']).toBe(published!.eventId)
    expect(JSON.parse(request.body.toString()).event_id).toBe(published!.eventId)
  })

  it('drop → never sent, recorded as dropped, delivery failed', async () => {
    const [published] = await send([{ type: 'drop' }])
    expect(server.requests).toHaveLength(0)
    const { delivery, attempts } = await rig.sender.getDelivery(published!.deliveries[0]!.id)
    expect(delivery.status).toBe('failed')
    expect(attempts).toMatchObject([{ outcome: 'dropped', decision: 'failed', faults: [{ type: 'drop' }] }])
  })

  it('duplicate in parallel → two deliveries of one event id at the same instant', async () => {
    const [published] = await send([{ type: 'duplicate', mode: 'parallel' }])
    expect(published!.deliveries).toHaveLength(2)
    expect(published!.deliveries[1]?.duplicateOf).toBe(published!.deliveries[0]?.id)
    expect(server.requests.map((r) => r.headers['webhook-id'])).toEqual([published!.eventId, published!.eventId])
    expect(server.requests[0]?.at).toBe(server.requests[1]?.at)
    // The copy is a delivery of its own: the subscription's deliveries count it.
    expect(createCountReads(rig.db).deliveries('f').deliveries).toBe(2)
  })

  it('duplicate at once → the copy goes right after the first attempt of the original', async () => {
    const [published] = await send([{ type: 'duplicate', mode: 'at-once' }])
    const [original, copy] = published!.deliveries
    expect(copy).toMatchObject({ nextAttemptAt: null, duplicateOf: original!.id })
    expect(server.requests.map((r) => linkedAttemptId(r.headers))).toEqual([
      (await rig.sender.getDelivery(original!.id)).attempts[0]?.id,
      (await rig.sender.getDelivery(copy!.id)).attempts[0]?.id,
    ])
    expect((await rig.sender.getDelivery(copy!.id)).attempts[0]?.faults.map((f) => f.type)).toEqual(['duplicate'])
  })

  it('duplicate after a delay → the copy arrives delay_ms later', async () => {
    await send([{ type: 'duplicate', mode: 'delayed', delay_ms: 90_000 }])
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]!.at - server.requests[0]!.at).toBe(90_000)
  })

  it('out of order → the events published after it arrive first', async () => {
    const published = await send([{ type: 'out-of-order', delay_ms: 5_000 }], 3)
    const order = server.requests.map((r) => JSON.parse(r.body.toString()).event_id)
    expect(order).toEqual([published[1]!.eventId, published[2]!.eventId, published[0]!.eventId])
    expect(server.requests[2]!.at - server.requests[0]!.at).toBe(5_000)
  })
})
