import { describe, expect, it } from 'vitest'
import { useCleanups, tunnelFixture } from './support/server'
import { record, sendToPublicUrl, waitForState, waitUntil } from './support/tunnel'

const cleanup = useCleanups()

describe('tunnel lifecycle', () => {
  it('survives being started and stopped over and over, leaving one tunnel with its sockets', async () => {
    const { server, manager } = await tunnelFixture(cleanup, {}, { graceMs: 200 })
    for (let i = 0; i < 15; i++) {
      manager.start()
      manager.start() // a second start while running does nothing
      if (i % 3 === 0) await new Promise((r) => setTimeout(r, 5 * i))
      await manager.stop()
      expect(manager.state).toEqual({ kind: 'stopped' })
      expect(manager.publicUrl()).toBeUndefined()
    }
    manager.start()
    await waitForState(manager, (s) => s.kind === 'online', 'online after the toggling')
    // Tunnels opened and abandoned mid-way are let go: the server ends up with one client holding sockets.
    await waitUntil(() => server.clients().filter((c) => c.sockets > 0).length === 1, 'a single client with sockets on the server')
    expect(manager.sockets()).toEqual({ live: 4, max: 4 })
    expect((await sendToPublicUrl(manager.publicUrl() ?? '', '/hooks/after-toggling', { body: '{}' })).status).toBe(200)
    await manager.stop()
    await waitUntil(() => server.clients().every((c) => c.sockets === 0), 'every socket closed after stop()')
  })

  it('keeps working when a state listener throws', async () => {
    const { manager } = await tunnelFixture(cleanup)
    manager.on('state', () => {
      throw new Error('a listener bug')
    })
    const { states } = record(manager)
    manager.start()
    await waitForState(manager, (s) => s.kind === 'online', 'online despite the throwing listener')
    expect(states.map((s) => s.kind)).toEqual(['connecting', 'online'])
  })

  it('stops listening after unsubscribe', async () => {
    const { manager } = await tunnelFixture(cleanup)
    const seen: string[] = []
    const off = manager.on('state', (s) => seen.push(s.kind))
    manager.start()
    await waitForState(manager, (s) => s.kind === 'online', 'online')
    off()
    await manager.stop()
    expect(seen).toEqual(['connecting', 'online'])
  })
})
