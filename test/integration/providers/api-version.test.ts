// A subscription's provider API version, end to end on real sockets and a real SQLite file: it is
// stored and survives a reopen, reaches Stripe's envelope (the `stripe` library of that API version
// accepts the event), Shopify's X-Shopify-API-Version and Square's Square-Version headers, and the
// a version the pack does not list is refused with the ones it does.
import { createServer } from 'node:http'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { PROVIDERS } from '../../../shared/providers'
import { createClock } from '../../../electron/engine/clock'
import { packSubscription } from '../../../electron/engine/providers'
import { trigger } from '../../../electron/engine/trigger'
import { createSender } from '../../../electron/engine/sender'
import { sign } from '../../../electron/engine/signatures'
import { openDatabase } from '../../../electron/engine/store'
import { listenLoopback } from '../../support/loopback'
import { makeTempDir } from '../../support/temp-dir'

// stripe 16 (API version 2024-06-20) is loaded without its types: they declare the module 'stripe'
// and would replace those of stripe 23 in the whole program.
interface StripeEvent {
  api_version: string | null
  type: string
}
type Stripe2024 = new (key: string) => { webhooks: { constructEvent(body: Buffer, header: string, secret: string): StripeEvent } }
const Stripe2024 = createRequire(import.meta.url)('stripe-2024-06-20') as Stripe2024

interface Received {
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

const closers: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.()
})

async function consumer(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) })
      res.writeHead(200).end()
    })
  })
  const loop = await listenLoopback(server)
  closers.push(() => loop.close())
  return { url: `${loop.url}/hooks`, received }
}

describe('provider API version per subscription', () => {
  it('puts the chosen Stripe version in the envelope, and Stripe\u2019s library of that version accepts it', async () => {
    const { url, received } = await consumer()
    const secret = 'whsec_api_version_test'
    const result = await trigger({ provider: 'stripe', eventType: 'charge.succeeded', url, secrets: [secret], clock: { mode: 'virtual' }, apiVersion: '2024-06-20' })
    expect(result.status).toBe('succeeded')
    const stripe = new Stripe2024('sk_test_hookloop')
    const event = stripe.webhooks.constructEvent(received[0]!.body, String(received[0]!.headers['stripe-signature']), secret)
    expect(event.api_version).toBe('2024-06-20')
    expect(event.type).toBe('charge.succeeded')

    const byDefault = await trigger({ provider: 'stripe', eventType: 'charge.succeeded', url, secrets: [secret], clock: { mode: 'virtual' } })
    expect(JSON.parse(byDefault.body).api_version).toBe(PROVIDERS.stripe.apiVersions![0])
  })

  it('builds the Stripe payload for the chosen version: a 2024-06-20 invoice names its subscription at the top, the default one under parent', async () => {
    const { url } = await consumer()
    const secret = 'whsec_api_version_test'
    const invoiceAt = async (apiVersion?: string) => {
      const result = await trigger({ provider: 'stripe', eventType: 'invoice.paid', url, secrets: [secret], clock: { mode: 'virtual' }, ...(apiVersion ? { apiVersion } : {}) })
      return (JSON.parse(result.body) as { data: { object: Record<string, unknown> } }).data.object
    }
    const legacy = await invoiceAt('2024-06-20')
    expect(legacy).toMatchObject({ subscription: expect.stringMatching(/^sub_/), charge: expect.stringMatching(/^ch_/), payment_intent: expect.stringMatching(/^pi_/) })
    expect(legacy).not.toHaveProperty('parent')
    const current = await invoiceAt()
    expect(current).not.toHaveProperty('subscription')
    expect(current).toHaveProperty('parent.subscription_details.subscription')
  })

  it('fills Shopify\u2019s and Square\u2019s version headers from the subscription', async () => {
    const { url, received } = await consumer()
    await trigger({ provider: 'shopify', eventType: 'orders/create', url, secrets: ['shopify-secret'], clock: { mode: 'virtual' }, apiVersion: '2025-04' })
    await trigger({ provider: 'square', eventType: 'payment.created', url, secrets: ['square-secret'], clock: { mode: 'virtual' }, apiVersion: '2026-09-16' })
    await trigger({ provider: 'square', eventType: 'payment.created', url, secrets: ['square-secret'], clock: { mode: 'virtual' } })
    expect(received.map((r) => r.headers['x-shopify-api-version'] ?? r.headers['square-version'])).toEqual(['2025-04', '2026-09-16', PROVIDERS.square.apiVersions![0]])
  })

  it('stores the version with the subscription, keeps it across a reopen, and refuses one the pack does not list', async () => {
    const { dir, cleanup } = makeTempDir()
    closers.push(cleanup)
    const file = join(dir, 'hookloop.db')
    const open = () => {
      const db = openDatabase({ file })
      const clock = createClock({ mode: 'real' })
      return { db, sender: createSender({ db, clock, sign }) }
    }
    const first = open()
    const made = await first.sender.createSubscription(packSubscription('shopify', { target: { url: 'http://127.0.0.1:9/x' }, apiVersion: '2025-07' }))
    const defaulted = await first.sender.createSubscription(packSubscription('stripe', { target: { url: 'http://127.0.0.1:9/y' } }))
    const none = await first.sender.createSubscription(packSubscription('github', { target: { url: 'http://127.0.0.1:9/z' } }))
    expect([made.apiVersion, defaulted.apiVersion, none.apiVersion]).toEqual(['2025-07', PROVIDERS.stripe.apiVersions![0], null])
    await expect(first.sender.createSubscription(packSubscription('stripe', { target: { url: 'http://127.0.0.1:9/y' }, apiVersion: '2019-01-01' }))).rejects.toThrow(
      `api_version: Stripe has no API version "2019-01-01" (known: ${PROVIDERS.stripe.apiVersions!.join(', ')})`,
    )
    await expect(first.sender.createSubscription(packSubscription('github', { target: { url: 'http://127.0.0.1:9/y' }, apiVersion: '2022-11-28' }))).rejects.toThrow(/GitHub has no API versions/)
    await expect(first.sender.createSubscription({ target: { url: 'http://127.0.0.1:9/y' }, scheme: 'standard-webhooks', policy: 'standard-webhooks', apiVersion: '2024-07' })).rejects.toThrow(/needs a provider/)
    const changed = await first.sender.updateSubscription(made.id, { provider: 'square' })
    expect(changed.apiVersion).toBe(PROVIDERS.square.apiVersions![0])
    await first.sender.stop()
    first.db.close()

    const second = open()
    await second.sender.start()
    const versions = new Map(second.sender.listSubscriptions().map((s) => [s.id, s.apiVersion]))
    expect([versions.get(made.id), versions.get(defaulted.id), versions.get(none.id)]).toEqual([PROVIDERS.square.apiVersions![0], PROVIDERS.stripe.apiVersions![0], null])
    await second.sender.stop()
    second.db.close()
  })
})
