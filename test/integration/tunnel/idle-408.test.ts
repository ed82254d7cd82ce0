import { describe, it } from 'vitest'
import { expectDeliveredAfterIdle, idleMs, idleReceiver, tunnelFixture, useCleanups } from './support/server'

// Node ≥ 18 answers a connection that sends no request within `headersTimeout` with 408 and
// closes it. A localtunnel client that connects to the receiver before any request arrives
// leaves such a connection idle; the stale 408 then answers the next real request. Node's
// default headersTimeout is 60 s; a receiver with a 1 s timeout shows the same thing quickly.
// TUNNEL_IDLE_NODE_DEFAULTS=1 runs it against a receiver with Node's own defaults and a 65 s idle.

const cleanup = useCleanups()

describe('tunnel after an idle period', () => {
  it(`still delivers after ${idleMs} ms idle to a receiver that keeps Node's header timeout`, { timeout: idleMs + 30_000 }, async () => {
    const receiver = await idleReceiver(cleanup)
    const { manager } = await tunnelFixture(cleanup, { localPort: receiver.port, healthIntervalMs: 0 })
    await expectDeliveredAfterIdle(manager)
  })
})
