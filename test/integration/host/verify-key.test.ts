// A key-pair provider's subscription (Discord's Ed25519, SendGrid's ECDSA) signs with a private key
// the engine made; the app's card shows the public key the consumer verifies with. That key, as
// the view gives it, is what the official libraries accept the deliveries with.
import { EventWebhook } from '@sendgrid/eventwebhook'
import { verifyKey } from 'discord-interactions'
import { afterEach, describe, expect, it } from 'vitest'
import { rawBody, serve, type Consumer } from '../providers/support'
import { settled, useHostSessions } from './support/session'

const openSession = useHostSessions()
let consumer: Consumer | null = null
afterEach(async () => {
  await consumer?.close()
  consumer = null
})

describe("the subscription view's verify key", () => {
  it('Discord: discord-interactions verifies the delivery with the hex public key the view shows', async () => {
    const { host, call } = await openSession()
    let key = ''
    const verdicts: boolean[] = []
    consumer = await serve(async (req, res) => {
      const body = await rawBody(req)
      verdicts.push(await verifyKey(body, String(req.headers['x-signature-ed25519']), String(req.headers['x-signature-timestamp']), key))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":5}')
    })
    const sub = await call('subscription.create', { name: 'discord bot', target: { url: consumer.url }, provider: 'discord' })
    expect(sub.verifyKey).toMatch(/^[0-9a-f]{64}$/)
    expect(sub.secretHints[0]).not.toContain(sub.verifyKey!.slice(0, 8))
    key = sub.verifyKey!
    await settled(host, (await call('event.send', { subscriptionId: sub.id, eventType: 'application_command', count: 1, faults: [] })).deliveryIds)
    expect(verdicts).toEqual([true])
  })

  it("SendGrid: @sendgrid/eventwebhook verifies the delivery with the base64 verification key the view shows; other schemes have none", async () => {
    const { host, call } = await openSession()
    let key = ''
    const verdicts: boolean[] = []
    consumer = await serve(async (req, res) => {
      const body = (await rawBody(req)).toString('utf8')
      const webhook = new EventWebhook()
      verdicts.push(webhook.verifySignature(webhook.convertPublicKeyToECDSA(key), body, String(req.headers['x-twilio-email-event-webhook-signature']), String(req.headers['x-twilio-email-event-webhook-timestamp'])))
      res.writeHead(200).end()
    })
    const sub = await call('subscription.create', { name: 'mail events', target: { url: consumer.url }, provider: 'sendgrid' })
    expect(sub.verifyKey).toMatch(/^[A-Za-z0-9+/]+=*$/)
    key = sub.verifyKey!
    await settled(host, (await call('event.send', { subscriptionId: sub.id, eventType: 'delivered', count: 1, faults: [] })).deliveryIds)
    expect(verdicts).toEqual([true])
    const stripe = await call('subscription.create', { name: 'billing', target: { url: consumer.url }, provider: 'stripe' })
    expect(stripe.verifyKey).toBeNull()
  })
})
