import { join } from 'node:path'
import { createRealClock } from '../../../electron/engine/clock'
import { createReceiver, type Receiver } from '../../../electron/engine/receiver'
import { openDatabase } from '../../../electron/engine/store'
import { createTunnelManager, type TunnelManager, type TunnelManagerOptions } from '../../../electron/engine/tunnel'
import { realServerLookup, startRealTunnelServer, type RealTunnelServer } from '../../support/tunnel-server/real-server'
import { makeTempDir } from '../../support/temp-dir'

export interface RealTunnelFixture {
  server: RealTunnelServer
  receiver: Receiver
  /** A manager in front of `receiver`, with short test timings. */
  manager: TunnelManager
  /** Another manager against the same server (e.g. to hold a subdomain). */
  another(options: Partial<TunnelManagerOptions> & { localPort: number }): TunnelManager
}

/**
 * The real localtunnel server in a child process, Hookloop's receiver over a SQLite file, and a
 * manager handing its sockets to that receiver as the engine does (`relay: true`, or another
 * `localPort`: relayed to that port instead, as for a receiver in another process).
 */
export async function realTunnelFixture(
  cleanup: (fn: () => Promise<void> | void) => void,
  managerOptions: Partial<TunnelManagerOptions> = {},
  { relay = false }: { relay?: boolean } = {},
): Promise<RealTunnelFixture> {
  const server = await startRealTunnelServer()
  cleanup(() => server.stop())
  const temp = makeTempDir('hookloop-tunnel-real-')
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
      lookup: realServerLookup,
      requestTimeoutMs: 1000,
      backoff: { initialMs: 100, maxMs: 800, jitter: 0.2 },
      healthIntervalMs: 300,
      degradedGraceMs: 300,
      ...options,
    })
    cleanup(() => manager.stop())
    return manager
  }
  // Looked up at each socket, so a test may wrap receiver.accept. A manager pointed at another
  // port (managerOptions.localPort) relays to it.
  const handOff = !relay && managerOptions.localPort === undefined
  const accept: TunnelManagerOptions['accept'] = handOff ? (socket, tap) => receiver.accept(socket, tap) : undefined
  const manager = make({ localPort: receiver.port, accept, ...managerOptions })
  holder.manager = manager
  return { server, receiver, manager, another: make }
}

/** The subdomain of a public URL: http://<id>.lt.test:<port> → <id>. */
export function idOf(url: string | undefined): string {
  return new URL(url ?? 'http://none').hostname.split('.')[0] ?? ''
}
