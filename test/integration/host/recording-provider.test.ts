// A subscription made in the app as a provider is recorded as that provider, with its API
// version, so the recorded scenario replays headless in the provider's shape: the same envelope
// (Stripe's Event at the chosen api_version), headers and signature, with the same outcome.
import { describe, expect, it } from 'vitest'
import { recordingSession, replayRecording } from './support/recording'
import { settled, useHostSessions } from './support/session'

const openSession = useHostSessions()
const SECRET = 'whsec_recordedStripeSecret'

describe('recording a provider subscription', () => {
  it('records the provider and API version, and the replay delivers as Stripe at that version', async () => {
    const { host: h, call } = await recordingSession(openSession)
    const inbox = await call('endpoint.create', { name: 'payments', scheme: 'stripe', secrets: [SECRET], dedupe: { type: 'json-path', path: 'id' } })
    const sub = await call('subscription.create', { name: 'stripe', target: { endpointId: inbox.id }, provider: 'stripe', apiVersion: '2024-06-20', secret: SECRET })
    expect(sub.apiVersion).toBe('2024-06-20')
    const sent = await call('event.send', { subscriptionId: sub.id, eventType: 'charge.succeeded', payload: JSON.stringify({ object: { id: 'ch_1', object: 'charge', amount: 1200 } }), count: 1, faults: [] })
    await settled(h, sent.deliveryIds)

    const { scenario, report } = await replayRecording(call)
    expect(scenario.subscriptions.map((s) => [s.provider, s.api_version, s.scheme])).toEqual([['stripe', '2024-06-20', 'stripe']])
    const body = (report.arrivals ?? [])[0]?.body as { object: string; api_version: string; type: string; data: { object: { amount: number } } }
    expect(body).toMatchObject({ object: 'event', api_version: '2024-06-20', type: 'charge.succeeded', data: { object: { amount: 1200 } } })
    expect(report.deliveries[0]?.provider_event_id?.value).toBe((body as unknown as { id: string }).id)
  })
})
