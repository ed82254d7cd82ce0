// Resend to your app: a captured request sent again as it was, re-signed after an edit, or edited
// with its signature left broken — checked by an app verifying with the official library.
import { afterEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from './support'
import { post, signedHeaders, startVerifyingApp, stopAll, type App } from '../../support/forward-apps'

const secret = 'whsec_' + Buffer.from('a-32-byte-secret-for-the-tests!!').toString('base64')

describe('resend to your app', () => {
  let h: Harness
  let app: App
  afterEach(() => stopAll(h, app))

  it('as it was passes the app\'s check; edited and re-signed passes; edited and broken fails', async () => {
    app = await startVerifyingApp(secret)
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'sw', scheme: 'standard-webhooks', secrets: [secret] })
    const body = '{"type":"invoice.paid","data":{"id":1}}'
    await post(`${h.receiver.url}/h/sw`, body, signedHeaders(secret, 'msg_9', body))
    const [request] = h.receiver.requests.list()
    const id = request?.id ?? -1
    const asIs = await h.receiver.resend(id, { to: `${app.url}/hook`, mode: 'as-is' })
    const edited = Buffer.from('{"type":"invoice.paid","data":{"id":2}}')
    const resigned = await h.receiver.resend(id, { to: `${app.url}/hook`, mode: 'resign', body: edited })
    const broken = await h.receiver.resend(id, { to: `${app.url}/hook`, mode: 'broken', body: edited })
    expect([asIs, resigned, broken].map((l) => [l.kind, l.response.status])).toEqual([
      ['resend', 200],
      ['resend', 200],
      ['resend', 401],
    ])
    expect(app.seen.map((r) => r.headers['webhook-id'])).toEqual(['msg_9', 'msg_9', 'msg_9'])
    expect(h.receiver.forwards.list(id)).toHaveLength(3)
    // Read back from disk, each leg has the body it sent: the captured one (stored once, in the
    // request's row) as it was, the edited one where it was edited.
    h.receiver.requests.flush()
    expect(h.receiver.forwards.list(id).map((l) => l.request.body.toString())).toEqual([body, edited.toString(), edited.toString()])
    await expect(h.receiver.resend(id, { to: `${h.receiver.url}/h/sw`, mode: 'as-is' })).rejects.toThrow(/^to: .*points back at this receiver/)
    await expect(h.receiver.resend(id, { to: app.url, mode: 'broken' })).rejects.toThrow(/^mode: /)
  })
})
