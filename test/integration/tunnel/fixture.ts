import { afterEach } from 'vitest'
import { createTunnelManager, type TunnelManager, type TunnelManagerOptions } from '../../../electron/engine/tunnel'
import { createTunnelServer, type TunnelServer, type TunnelServerOptions } from '../../support/tunnel-server'
import { startReceiver } from './support'

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
