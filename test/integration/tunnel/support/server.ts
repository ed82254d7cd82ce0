import { afterEach, expect } from 'vitest'
import { createTunnelManager, type TunnelManager, type TunnelManagerOptions } from '../../../../electron/engine/tunnel'
import { createTunnelServer, type TunnelServer, type TunnelServerOptions } from '../../../support/tunnel-server'
import { idleTimeoutReceiver, listening, sendToPublicUrl, startReceiver, waitForState } from './tunnel'

/** Registers cleanups that run after each test, last first. */
export function useCleanups(): (fn: () => Promise<void> | void) => void {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })
  return (fn) => {
    cleanups.push(fn)
  }
}

export interface TunnelFixture {
  server: TunnelServer
  manager: TunnelManager
  receiver: Awaited<ReturnType<typeof startReceiver>>
}

/** A loopback tunnel server, a receiver and a manager between them, with short test timings. */
export async function tunnelFixture(
  cleanup: (fn: () => Promise<void> | void) => void,
  managerOptions: Partial<TunnelManagerOptions> = {},
  serverOptions: TunnelServerOptions = {},
): Promise<TunnelFixture> {
  const server = await createTunnelServer({ maxSockets: 4, ...serverOptions })
  cleanup(() => server.stop())
  const receiver = await startReceiver()
  cleanup(() => receiver.close())
  const manager = createTunnelManager({
    localPort: receiver.port,
    host: server.url,
    requestTimeoutMs: 1000,
    backoff: { initialMs: 100, maxMs: 800, jitter: 0.2 },
    healthIntervalMs: 500,
    degradedGraceMs: 200,
    ...managerOptions,
  })
  cleanup(() => manager.stop())
  return { server, manager, receiver }
}

// Node's headersTimeout is 60 s: TUNNEL_IDLE_NODE_DEFAULTS=1 idles 65 s in front of a receiver
// with Node's own defaults; otherwise TUNNEL_IDLE_MS (2.5 s) in front of one with a 1 s header timeout.
export const idleNodeDefaults = process.env.TUNNEL_IDLE_NODE_DEFAULTS === '1'
export const idleMs = idleNodeDefaults ? 65_000 : Number(process.env.TUNNEL_IDLE_MS ?? 2500)

/** A receiver that keeps Node's header timeout (see idleTimeoutReceiver), closed after the test. */
export async function idleReceiver(cleanup: (fn: () => Promise<void> | void) => void): Promise<{ port: number }> {
  const receiver = await listening(idleTimeoutReceiver(idleNodeDefaults), undefined)
  cleanup(() => receiver.close())
  return receiver
}

/** Starts `manager`, sends one keep-alive request, idles `idleMs`, then expects four more delivered. */
export async function expectDeliveredAfterIdle(manager: TunnelManager): Promise<void> {
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
}
