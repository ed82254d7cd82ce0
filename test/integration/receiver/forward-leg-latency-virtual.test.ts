// A leg's latency is the app's real time to answer, also when the engine runs on a virtual clock:
// the app is a real server doing real work, which takes no virtual time at all.
import { afterEach, describe, expect, it } from 'vitest'
import { createVirtualClock, type VirtualClock } from '../../../electron/engine/clock'
import { startHarness, type Harness } from './support'
import { post, startApp, type App } from '../../support/forward-apps'

const APP_DELAY_MS = 60

describe('forward leg latency on the virtual clock', () => {
  let h: Harness | undefined
  let app: App | undefined
  let clock: VirtualClock | undefined
  afterEach(async () => {
    await h?.stop()
    await app?.close()
    clock?.dispose()
  })

  it("a slow app's leg shows its real latency, not the virtual clock's 0 ms", async () => {
    // The app waits on real time before it answers (it is the engineer's app, not the engine).
    app = await startApp((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('slow ok'), APP_DELAY_MS)
    })
    clock = createVirtualClock({ start: 1_700_000_000_000 })
    h = await startHarness({ clock })
    await h.receiver.endpoints.create({ slug: 'slow', forward_to: `${app.url}/hook` })
    const answer = await post(`${h.receiver.url}/h/slow`, '{"type":"invoice.paid"}')
    expect(answer).toMatchObject({ status: 200 })
    const [request] = h.receiver.requests.list()
    const [leg] = h.receiver.forwards.list(request?.id ?? -1)
    expect(leg?.outcome).toBe('answered')
    expect(leg?.response.status).toBe(200)
    // A lower bound only (the app waited at least this long); no upper bound on a shared machine.
    expect(leg?.latencyMs ?? 0).toBeGreaterThanOrEqual(APP_DELAY_MS - 1)
  })
})
