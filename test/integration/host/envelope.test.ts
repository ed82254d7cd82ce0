// A subscription that sends the payload as the whole body (seed provider B's shape), through the
// host's command layer over the real control socket: the receiver dedupes on B's composite key
// from the body, the delivery detail shows the body as sent, Replay sends the same payload again,
// and a recording of it keeps the envelope and replays headless with the same outcome.
import { describe, expect, it } from 'vitest'
import { recordingSession, replayRecording } from './support/recording'
import { settled, useHostSessions } from './support/session'

const openSession = useHostSessions()

const SECRET = `whsec_${Buffer.from('seed provider B secret, 32 byte!').toString('base64')}`
const PAYLOAD = JSON.stringify({ event: 'message.received', message: { id: 'msg_88412', text: 'Halo, pesanan saya belum sampai' } })

describe('payload envelope through the host', () => {
  it('sends, shows, replays and records the payload as the whole body', async () => {
    const { host: h, call } = await recordingSession(openSession)
    const inbox = await call('endpoint.create', { name: 'cs inbox', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: { type: 'template', template: '${event}_${message.id}' } })
    const sub = await call('subscription.create', { name: 'csku', target: { endpointId: inbox.id }, scheme: 'standard-webhooks', secret: SECRET, policyId: 'csku', envelope: 'payload' })
    expect(sub.envelope).toBe('payload')
    await expect(call('subscription.create', { name: 'bad', target: { endpointId: inbox.id }, scheme: 'standard-webhooks', policyId: 'csku', envelope: 'raw' as never })).rejects.toThrow(/envelope/)

    const sent = await call('event.send', { subscriptionId: sub.id, eventType: 'message.received', payload: PAYLOAD, count: 1, faults: [] })
    await settled(h, sent.deliveryIds)
    const detail = await call('delivery.get', { id: sent.deliveryIds[0]! })
    expect(Buffer.from(detail.payloadBase64, 'base64').toString('utf8')).toBe(PAYLOAD)

    const replayed = await call('delivery.replay', { id: sent.deliveryIds[0]! })
    await settled(h, [replayed.deliveryId])
    await h.engine.quiesce()
    const requests = h.engine.db.prepare('SELECT body, dedupe_key, duplicate_number, verify_valid FROM requests ORDER BY id').all() as Array<{ body: Buffer; dedupe_key: string; duplicate_number: number; verify_valid: number }>
    expect(requests.map((r) => [r.body.toString('utf8'), r.dedupe_key, r.duplicate_number, r.verify_valid])).toEqual([
      [PAYLOAD, 'message.received_msg_88412', 1, 1],
      [PAYLOAD, 'message.received_msg_88412', 2, 1],
    ])

    const { scenario } = await replayRecording(call)
    expect(scenario.subscriptions.map((s) => s.envelope)).toEqual(['payload'])
    expect(scenario.events.map((e) => e.payload)).toEqual([JSON.parse(PAYLOAD), JSON.parse(PAYLOAD)])
  })
})
