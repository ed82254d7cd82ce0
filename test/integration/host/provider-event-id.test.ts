// The delivery detail the app reads names the id the consumer knows the event by, beside
// Hookloop's: a Stripe subscription's `evt_…` is the one in the body its endpoint received, a
// GitHub subscription's the X-GitHub-Delivery header the endpoint captured. The detail's body is the
// provider's shape, as the attempts sent it.
import { describe, expect, it } from 'vitest'
import { settled, useHostSessions } from './support/session'

const openSession = useHostSessions()

describe('provider event id in the delivery detail', () => {
  it('shows the id the consumer read, from the body or a header', async () => {
    const { host: h, call } = await openSession()
    const inbox = await call('endpoint.create', { name: 'inbox', scheme: null, secrets: [], dedupe: null })
    const stripe = await call('subscription.create', { name: 'stripe', target: { endpointId: inbox.id }, provider: 'stripe', secret: 'whsec_provider_event_id_test' })
    const github = await call('subscription.create', { name: 'github', target: { endpointId: inbox.id }, provider: 'github', secret: 'github-secret-for-the-test' })
    const plain = await call('subscription.create', { name: 'plain', target: { endpointId: inbox.id }, scheme: 'standard-webhooks', secret: `whsec_${Buffer.from('a plain subscription secret 32b!').toString('base64')}`, policyId: 'standard-webhooks' })

    const sentStripe = await call('event.send', { subscriptionId: stripe.id, eventType: 'invoice.paid', payload: JSON.stringify({ object: { id: 'in_1', object: 'invoice' } }), count: 1, faults: [] })
    const sentGithub = await call('event.send', { subscriptionId: github.id, eventType: 'push', payload: JSON.stringify({ ref: 'refs/heads/main' }), count: 1, faults: [] })
    const sentPlain = await call('event.send', { subscriptionId: plain.id, eventType: 'order.paid', payload: '{}', count: 1, faults: [] })
    const ids = [...sentStripe.deliveryIds, ...sentGithub.deliveryIds, ...sentPlain.deliveryIds]
    await settled(h, ids)
    await h.engine.quiesce()
    const received = h.engine.db.prepare('SELECT body, headers_json FROM requests ORDER BY id').all() as Array<{ body: Buffer; headers_json: string }>

    const stripeDetail = await call('delivery.get', { id: sentStripe.deliveryIds[0]! })
    const stripeBody = JSON.parse(Buffer.from(stripeDetail.payloadBase64, 'base64').toString('utf8')) as { id: string; object: string }
    expect(stripeBody.object).toBe('event')
    expect(stripeDetail.providerEventId).toEqual({ value: stripeBody.id, where: 'body.id' })
    expect(stripeDetail.providerEventId?.value).toMatch(/^evt_/)
    expect(stripeDetail.providerEventId?.value).not.toBe(stripeDetail.eventId)
    const stripeReceived = received.map((r) => r.body.toString('utf8')).find((b) => b.includes('"object":"event"'))
    expect(JSON.parse(stripeReceived!).id).toBe(stripeDetail.providerEventId?.value)

    const githubDetail = await call('delivery.get', { id: sentGithub.deliveryIds[0]! })
    expect(githubDetail.providerEventId?.where).toBe('x-github-delivery')
    const githubHeaders = received.map((r) => JSON.stringify(r.headers_json)).join('\n')
    expect(githubHeaders).toContain(githubDetail.providerEventId!.value)

    const plainDetail = await call('delivery.get', { id: sentPlain.deliveryIds[0]! })
    expect(plainDetail.providerEventId).toBeNull()
  })
})
