// close() with holds, delays, drips, idle sockets and half-sent heads in flight: every one ends,
// every outcome is recorded, and no socket, server or timer is left behind.
import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { post, startHarness } from './support'

const KINDS = ['TCPSocketWrap', 'TCPServerWrap', 'Timeout', 'Immediate', 'MessagePort', 'Worker']

function handles(): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(KINDS.map((k) => [k, 0]))
  for (const kind of process.getActiveResourcesInfo()) if (kind in counts) counts[kind] = (counts[kind] ?? 0) + 1
  return counts
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket))
    socket.on('error', () => undefined)
    socket.resume() // read to EOF, so the server's FIN closes it
  })
}

describe.each([
  ['on the event loop', false],
  ['on the capture thread', true],
] as const)('closing the receiver (commits %s)', (_mode, captureThread) => {
  it('ends every hold and wait, records their outcome, and leaks no handle', async () => {
    const before = handles()
    const h = await startHarness({ requestDeadlineMs: 60_000, captureThread })
    const e = await h.receiver.endpoints.create({ slug: 'l' })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'path', path: '/h/l/hold' }], steps: [{ type: 'timeout' }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'path', path: '/h/l/hold-60s' }], steps: [{ type: 'timeout', ms: 60_000 }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'path', path: '/h/l/delay' }], steps: [{ type: 'delay', ms: 60_000 }, { type: 'reply', status: 200 }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'path', path: '/h/l/drip' }], steps: [{ type: 'drip', body: 'abc', interval_ms: 60_000 }] })

    const clients: net.Socket[] = []
    for (const path of ['/h/l/hold', '/h/l/hold-60s', '/h/l/delay', '/h/l/drip']) {
      const socket = await connect(h.receiver.port)
      socket.write(post(path, '{}'))
      clients.push(socket)
    }
    const idle = await connect(h.receiver.port)
    const halfHead = await connect(h.receiver.port)
    halfHead.write('POST /h/l HTTP/1.1\r\nHost: x\r\n') // deadline armed, head never finished
    clients.push(idle, halfHead)
    await h.waitFor('request.captured', () => h.events.filter((ev) => ev.type === 'request.captured').length === 4)
    expect(h.receiver.openConnections()).toBe(6)

    const closed = Promise.all(clients.map((c) => new Promise((resolve) => (c.destroyed ? resolve(null) : c.once('close', resolve)))))
    await h.receiver.close()
    await closed
    expect(h.receiver.openConnections()).toBe(0)
    const outcomes = h.receiver.requests.list().map((r) => [r.path, r.fault?.outcome])
    expect(outcomes.sort()).toEqual(
      [
        ['/h/l/delay', 'client_gone'],
        ['/h/l/drip', 'client_gone'],
        ['/h/l/hold', 'timed_out'],
        ['/h/l/hold-60s', 'timed_out'],
      ].sort(),
    )
    await h.stop()
    // A terminated capture thread is released asynchronously.
    for (let i = 0; i < 100 && KINDS.some((k) => (handles()[k] ?? 0) > (before[k] ?? 0)); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    // Nothing of ours is left (the test runner's own timers may come and go, hence ≤).
    const after = handles()
    for (const kind of KINDS) expect(after[kind], kind).toBeLessThanOrEqual(before[kind] ?? 0)
  })
})
