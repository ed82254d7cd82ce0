import { describe, expect, it } from 'vitest'
import { sign } from '../../../electron/engine/signatures'
import { useCleanups } from './support/server'
import { testServerFixture } from './support/behind-tunnel'
import { sendToPublicUrl, waitForState, waitUntil } from './support/tunnel'

const cleanup = useCleanups()

describe('tunnel in front of the Hookloop receiver', () => {
  it('delivers a URL-signed webhook sent to the public URL; the receiver captures it and verifies it against publicUrl()', async () => {
    // Relayed to the receiver's port (no hand-off): the path for a receiver in another process.
    const { receiver, manager } = await testServerFixture(cleanup, { requestTimeoutMs: 2000 }, { relay: true, server: { maxSockets: 10, reuseSockets: false } })
    const secret = 'square-signature-key'
    await receiver.endpoints.create({ slug: 'square', scheme: 'square', secrets: [secret] })

    manager.start()
    await waitForState(manager, (s) => s.kind === 'online', 'online')
    const publicUrl = manager.publicUrl() ?? ''
    const path = '/h/square'
    const body = Buffer.from(JSON.stringify({ merchant_id: 'M1', type: 'payment.created', event_id: 'd2b7c3e4-0f5a-4b6c-9d7e-8f9a0b1c2d3e' }))
    // Square signs the URL the provider posts to, so this verifies only with the public URL known.
    const headers = sign('square', { body, secret, url: `${publicUrl}${path}` })
    const answer = await sendToPublicUrl(publicUrl, path, { body: body.toString(), headers: { 'content-type': 'application/json', ...headers } })
    expect(answer.status).toBeLessThan(300)

    await waitUntil(() => {
      receiver.requests.flush()
      return receiver.requests.count() === 1
    }, 'the receiver to capture the webhook')
    const [record] = receiver.requests.list()
    expect(record?.path).toBe(path)
    expect(Buffer.from(record?.body ?? []).equals(body)).toBe(true)
    expect(record?.verify).toMatchObject({ scheme: 'square', valid: true, reason: 'ok' })
    // Health checks went through the same public URL but were never captured.
    expect(receiver.requests.count()).toBe(1)
  })
})
