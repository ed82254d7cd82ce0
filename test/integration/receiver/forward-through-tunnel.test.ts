// Forward mode as a provider reaches it: through the public tunnel (our test server and the real
// localtunnel server), into the receiver with a fault in front, on to a real app that verifies the
// signature with the official Standard Webhooks library.
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { useCleanups } from '../tunnel/support/server'
import { realTunnelFixture, testServerFixture } from '../tunnel/support/behind-tunnel'
import { sendToPublicUrl, waitForState } from '../tunnel/support/tunnel'
import { startIdVerifyingApp } from '../../support/forward-apps'

const secret = 'whsec_' + Buffer.from('a-32-byte-secret-for-the-tests!!').toString('base64')
const cleanup = useCleanups()

describe.each([
  ['our test server', () => testServerFixture(cleanup)],
  ['the real localtunnel server', () => realTunnelFixture(cleanup)],
])('forward through the tunnel (%s)', (_, setUp) => {
  it('fail the first one before the app sees it, then forward: the provider retries, the app verifies and answers once, both legs stored', async () => {
    const { app, verified } = await startIdVerifyingApp(secret)
    cleanup(() => app.close())
    const { receiver, manager } = await setUp()
    manager.start()
    const online = await waitForState(manager, (s) => s.kind === 'online', 'the tunnel online')
    if (online.kind !== 'online') throw new Error('not online')
    const endpoint = await receiver.endpoints.create({ slug: 'shop', scheme: 'standard-webhooks', secrets: [secret], dedupe: { type: 'header', name: 'webhook-id' } })
    await receiver.rules.add(endpoint.id, { preset: 'fail-then-forward', n: 1, url: `${app.url}/webhooks` })

    const body = '{"type":"order.paid",  "data":{"id":"o_1"}}'
    const headers = () => {
      const at = new Date()
      return {
        'content-type': 'application/json',
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign('msg_1', at, body),
      }
    }
    // The provider's first attempt is failed in front of the app; its retry reaches the app.
    const first = await sendToPublicUrl(online.url, '/h/shop', { headers: headers(), body })
    expect(first.status).toBe(503)
    expect(app.seen).toHaveLength(0)
    const second = await sendToPublicUrl(online.url, '/h/shop', { headers: headers(), body })
    expect(second).toMatchObject({ status: 200, body: '{"ok":true}' })
    expect(verified).toEqual(['msg_1'])
    const seen = await app.received(1)
    expect(seen.body.toString('utf8')).toBe(body)
    expect(seen.headers['x-forwarded-host']).toBe(new URL(online.url).host)

    receiver.requests.flush()
    const requests = receiver.requests.list().sort((a, b) => a.id - b.id)
    expect(requests.map((r) => [r.response.status, r.duplicateNumber])).toEqual([
      [503, 1],
      [200, 2],
    ])
    expect(requests.every((r) => r.verify?.valid === true)).toBe(true)
    expect(receiver.forwards.list(requests[0]!.id)).toEqual([])
    const [leg, ...more] = receiver.forwards.list(requests[1]!.id)
    expect(more).toEqual([])
    expect(leg).toMatchObject({ kind: 'forward', outcome: 'answered', targetUrl: `${app.url}/webhooks`, response: { status: 200 } })
    expect(Buffer.from(leg!.request.body).toString('utf8')).toBe(body)
  })
})
