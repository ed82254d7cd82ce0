import type { Server } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'

/** Listens on a free 127.0.0.1 port; close() drops open connections first, so a held request cannot stall it. */
export async function listenLoopback(server: Server): Promise<{ url: string; port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A 127.0.0.1 port nothing listens on now: taken, then let go (for a process told to listen on it, or to find nothing there). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}
