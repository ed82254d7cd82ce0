// Forward mode with a body as large as a provider sends (25 MiB, under the default body limit):
// the app gets the exact bytes, the sender gets the app's answer, and the request and its leg are
// stored whole.
import { afterEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from './support'
import { providerSizedBody, sha256 } from '../../support/provider-sized-body'
import { post, startApp, stopAll, type App } from '../../support/forward-apps'

describe('forward mode with a provider-sized body', () => {
  let h: Harness | undefined
  let app: App | undefined
  afterEach(() => stopAll(h, app))

  it('passes a 25 MiB push to the app byte for byte and relays its answer', async () => {
    app = await startApp((req, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end(sha256(req.body)))
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'github', forward_to: `${app.url}/webhooks/github` })
    const push = providerSizedBody()
    const answer = await post(`${h.receiver.url}/h/github`, push.body, { 'x-github-event': 'push' })
    expect(answer).toMatchObject({ status: 202 })
    if ('error' in answer) throw new Error(answer.error)
    // The app's own digest of what reached it, relayed back, and what the app recorded.
    expect(answer.body.toString()).toBe(push.sha256)
    const seen = await app.received(1)
    expect(seen.body.length).toBe(push.body.length)
    expect(sha256(seen.body)).toBe(push.sha256)
    expect(seen.headers['content-length']).toBe(String(push.body.length))
    // Stored: the request whole, and its leg pointing at the same bytes.
    const [record] = h.receiver.requests.list()
    expect(record?.bodySize).toBe(push.body.length)
    expect(sha256(Buffer.from(record?.body ?? []))).toBe(push.sha256)
    const [leg] = h.receiver.forwards.list(record?.id ?? -1)
    expect(leg?.outcome).toBe('answered')
    expect(leg?.response.status).toBe(202)
    expect(sha256(Buffer.from(leg?.request.body ?? []))).toBe(push.sha256)
  })
})
