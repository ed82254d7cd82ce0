import { describe, expect, it } from 'vitest'
import { useCleanups, tunnelFixture } from './fixture'
import { idleTimeoutReceiver, listening, sendToPublicUrl, waitForState } from './support'

// Node ≥ 18 answers a connection that sends no request within `headersTimeout` with 408 and
// closes it. A localtunnel client that connects to the receiver before any request arrives
// leaves such a connection idle; the stale 408 then answers the next real request. Node's
// default headersTimeout is 60 s; a receiver with a 1 s timeout shows the same thing quickly.
// TUNNEL_IDLE_NODE_DEFAULTS=1 runs it against a receiver with Node's own defaults and a 65 s idle.
const nodeDefaults = process.env.TUNNEL_IDLE_NODE_DEFAULTS === '1'
const idleMs = nodeDefaults ? 65_000 : Number(process.env.TUNNEL_IDLE_MS ?? 2500)

const cleanup = useCleanups()

describe('tunnel after an idle period', () => {
  it(`still delivers after ${idleMs} ms idle to a receiver that keeps Node's header timeout`, { timeout: idleMs + 30_000 }, async () => {
    const receiver = await listening(idleTimeoutReceiver(nodeDefaults), undefined)
    cleanup(() => receiver.close())
    const { manager } = await tunnelFixture(cleanup, { localPort: receiver.port, healthIntervalMs: 0 })
    manager.start()
    await waitForState(manager, (s) => s.kind === 'online', 'online')
    // One keep-alive request first, so that a kept-alive receiver connection sits idle too
    // (the idle period is shorter than the receiver's 5 s keepAliveTimeout).
    const first = await sendToPublicUrl(manager.publicUrl() ?? '', '/hooks/before-idle', { body: '{}', headers: { connection: 'keep-alive' } })
    expect(first.status).toBe(200)
    await new Promise((r) => setTimeout(r, idleMs))
    for (let i = 0; i < 4; i++) {
      const answer = await sendToPublicUrl(manager.publicUrl() ?? '', `/hooks/after-idle-${i}`, { body: '{}' })
      expect(answer.status, `request ${i} after the idle period`).toBe(200)
      expect(answer.body).toBe('delivered')
    }
  })
})
