// A flood toward a slow app is bounded by the receiver's in-flight budget, not by memory: requests
// held on a forward keep their bodies counted, and past the budget the next sender is refused
// (503 + Retry-After); background copies past their cap make the sender wait instead of piling up.
// Counted, never timed: the app holds every answer until the test releases it.
import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from './support'
import { post, startApp, type App } from '../../support/forward-apps'

const KIB = 1024

describe('a flood toward a slow app', () => {
  let h: Harness
  let app: App
  let held: ServerResponse[]
  afterEach(async () => {
    for (const res of held) res.end()
    await h?.stop()
    await app?.close()
  })

  async function slowApp(): Promise<void> {
    held = []
    app = await startApp((_req, res) => held.push(res))
  }
  const release = () => held.splice(0).forEach((res) => res.writeHead(200).end('done'))

  it('forward: three bodies fill the budget and wait on the app; the next five are refused 503, all eight recorded', async () => {
    await slowApp()
    h = await startHarness({ bodyBudgetBytes: 300 * KIB })
    await h.receiver.endpoints.create({ slug: 'app', forward_to: `${app.url}/hook` })
    const body = Buffer.alloc(100 * KIB, 'a')
    const waiting = []
    for (let i = 1; i <= 3; i++) {
      waiting.push(post(`${h.receiver.url}/h/app`, body))
      await app.received(i)
    }
    expect(h.receiver.bodyBudget().inUse).toBe(300 * KIB)
    const refused = []
    for (let i = 0; i < 5; i++) refused.push(await post(`${h.receiver.url}/h/app`, body))
    expect(refused.map((r) => ('error' in r ? r.error : [r.status, r.headers['retry-after'] !== undefined]))).toEqual(Array(5).fill([503, true]))
    expect(app.seen).toHaveLength(3)
    release()
    expect((await Promise.all(waiting)).map((r) => ('error' in r ? r.error : r.status))).toEqual([200, 200, 200])
    expect(h.receiver.bodyBudget().inUse).toBe(0)
    const requests = h.receiver.requests.list()
    expect(requests).toHaveLength(8)
    expect(requests.filter((r) => r.response.status === 503)).toHaveLength(5)
    expect(requests.flatMap((r) => h.receiver.forwards.list(r.id)).map((l) => l.response.status)).toEqual([200, 200, 200])
  })

  it('forward-copy: past the cap of background copies the next sender waits for its copy, so copies in flight stay bounded', async () => {
    await slowApp()
    h = await startHarness({ maxBackgroundCopies: 2 })
    const endpoint = await h.receiver.endpoints.create({ slug: 'app' })
    await h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward-copy', url: `${app.url}/hook` }, { type: 'reply', status: 202 }] })
    const send = () => post(`${h.receiver.url}/h/app`, '{"n":1}')
    // Two copies in the background: their senders are answered while the app still holds them.
    expect([await send(), await send()].map((r) => ('error' in r ? r.error : r.status))).toEqual([202, 202])
    await app.received(2)
    const third = send()
    await app.received(3)
    // The third copy is in the foreground: its sender's answer waits on the app, which holds it.
    expect(h.receiver.forwarder.inFlight()).toBe(3)
    expect(h.events.filter((e) => e.type === 'request.responded')).toHaveLength(2)
    release()
    expect(await third).toMatchObject({ status: 202 })
    expect(h.events.filter((e) => e.type === 'request.responded')).toHaveLength(3)
  })
})
