import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

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
