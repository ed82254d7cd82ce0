import type { Socket } from 'node:net'
import { join } from 'node:path'
import { createRealClock } from '../../../../electron/engine/clock'
import { createReceiver, type Receiver } from '../../../../electron/engine/receiver'
import { openDatabase } from '../../../../electron/engine/store'
import { createTunnelManager, type TunnelManager, type TunnelManagerOptions } from '../../../../electron/engine/tunnel'
import { createTunnelServer, type TunnelServer, type TunnelServerOptions } from '../../../support/tunnel-server'
import { realServerLookup, startRealTunnelServer, type RealTunnelServer } from '../../../support/tunnel-server/real-server'
import { makeTempDir } from '../../../support/temp-dir'

// Hookloop's own receiver behind a tunnel, on our test server or the real localtunnel server: the
// one set-up of the hand-off, receiver, stall, idle and forward-through-the-tunnel tests.

export interface ReceiverBehindTunnel<S> {
  server: S
  receiver: Receiver
  /** A manager in front of `receiver`, with short test timings. */
  manager: TunnelManager
  /** Every tunnel socket the manager handed to the receiver (none when relayed). */
  handed: Set<Socket>
  /** Another manager against the same server (e.g. to hold a subdomain). */
  another(options: Partial<TunnelManagerOptions> & { localPort: number }): TunnelManager
}

export interface BehindTunnelOptions {
  /** Relay to the receiver's port (as for a receiver in another process) instead of handing sockets to it. */
  relay?: boolean
}

type Cleanup = (fn: () => Promise<void> | void) => void

/**
 * Hookloop's receiver over a SQLite file, and a manager handing its sockets to that receiver as
 * the engine does (`relay: true`, or another `localPort`: relayed to that port instead).
 */
async function behind<S extends { url: string }>(cleanup: Cleanup, server: S, defaults: Partial<TunnelManagerOptions>, managerOptions: Partial<TunnelManagerOptions>, { relay = false }: BehindTunnelOptions): Promise<ReceiverBehindTunnel<S>> {
  const temp = makeTempDir('hookloop-tunnel-')
  const db = openDatabase({ file: join(temp.dir, 'hookloop.db') })
  cleanup(() => {
    db.close()
    temp.cleanup()
  })
  const holder: { manager?: TunnelManager } = {}
  const receiver = await createReceiver({ db, clock: createRealClock(), publicUrl: () => holder.manager?.publicUrl() })
  cleanup(() => receiver.close())
  const make = (options: Partial<TunnelManagerOptions> & { localPort: number }) => {
    const manager = createTunnelManager({
      host: server.url,
      requestTimeoutMs: 1000,
      backoff: { initialMs: 100, maxMs: 800, jitter: 0.2 },
      healthIntervalMs: 300,
      degradedGraceMs: 300,
      ...defaults,
      ...options,
    })
    cleanup(() => manager.stop())
    return manager
  }
  const handed = new Set<Socket>()
  // Looked up at each socket, so a test may wrap receiver.accept.
  const accept: TunnelManagerOptions['accept'] = (socket, tap) => {
    handed.add(socket)
    receiver.accept(socket, tap)
  }
  const handOff = !relay && managerOptions.localPort === undefined
  const manager = make({ localPort: receiver.port, ...(handOff ? { accept } : {}), ...managerOptions })
  holder.manager = manager
  return { server, receiver, manager, handed, another: make }
}

/** The real localtunnel server in a child process, with Hookloop's receiver behind it. */
export async function realTunnelFixture(cleanup: Cleanup, managerOptions: Partial<TunnelManagerOptions> = {}, options: BehindTunnelOptions = {}): Promise<ReceiverBehindTunnel<RealTunnelServer>> {
  const server = await startRealTunnelServer()
  cleanup(() => server.stop())
  return behind(cleanup, server, { lookup: realServerLookup }, managerOptions, options)
}

/** Our loopback test server (4 sockets, kept for later requests unless told otherwise), with Hookloop's receiver behind it. */
export async function testServerFixture(
  cleanup: Cleanup,
  managerOptions: Partial<TunnelManagerOptions> = {},
  options: BehindTunnelOptions & { server?: TunnelServerOptions } = {},
): Promise<ReceiverBehindTunnel<TunnelServer>> {
  const server = await createTunnelServer({ maxSockets: 4, reuseSockets: true, ...options.server })
  cleanup(() => server.stop())
  return behind(cleanup, server, {}, managerOptions, options)
}

/** The subdomain of a public URL: http://<id>.lt.test:<port> → <id>. */
export function idOf(url: string | undefined): string {
  return new URL(url ?? 'http://none').hostname.split('.')[0] ?? ''
}
