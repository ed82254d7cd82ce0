// Breakpoints through the host's command layer over the real control socket: a breakpoint is put,
// a request stops at it and every UI is told at once with its whole content, the edit is released
// through a command and the timeline's detail keeps the original beside the edit.
import { describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import type { EventMessage, ServerFrame } from '../../../shared/contract'
import { post } from '../../support/forward-apps'
import { useHostSessions } from './support/session'
import { createBreakpointStore, openDatabase } from '../../../electron/engine/store'
import { parseBreakpoint } from '../../../shared/receiver'

const openSession = useHostSessions()

/** Resolves with the first pushed event of that name. */
function pushed<N extends EventMessage['name']>(ws: WebSocket, name: N): Promise<Extract<EventMessage, { name: N }>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as ServerFrame
      if (frame.t !== 'events') return
      const found = frame.batch.find((e) => e.name === name)
      if (!found) return
      ws.off('message', onMessage)
      resolve(found as Extract<EventMessage, { name: N }>)
    }
    ws.on('message', onMessage)
  })
}

describe('breakpoints through the host', () => {
  it('puts a breakpoint, pushes the held request, releases it edited, refuses what does not fit', async () => {
    const { call, ws } = await openSession()
    const endpoint = await call('endpoint.create', { name: 'pay', scheme: null, secrets: [], dedupe: { type: 'header', name: 'webhook-id' } })
    const changed = pushed(ws, 'breakpoints.changed')
    const bp = await call('breakpoint.put', { breakpoint: { endpointId: endpoint.id, matchers: [{ type: 'method', method: 'POST' }], limitMs: 60_000 } })
    expect(bp.explain).toBe('Hold method is POST for up to 60 s, then release it as it came')
    expect((await changed).payload.breakpoints.map((b) => b.id)).toEqual([bp.id])
    await expect(call('breakpoint.put', { breakpoint: { matchers: [{ type: 'probability', p: 0.5, seed: 1 }] } })).rejects.toThrow(/^bad_request: .*matches by method/)

    const held = pushed(ws, 'breakpoint.held')
    const answer = post(endpoint.localUrl, '{"amount":100}')
    const { payload: request } = await held
    expect(request).toMatchObject({ method: 'POST', body: '{"amount":100}', endpointId: endpoint.id })
    const list = await call('breakpoint.list', {})
    expect(list.held.map((h) => h.requestId)).toEqual([request.requestId])
    expect(list.waits.find((w) => w.id === 'stripe')?.waitMs).toBeGreaterThan(0)
    expect((await call('snapshot', {})).breakpoints.held.map((h) => h.requestId)).toEqual([request.requestId])

    await expect(call('held.release', { requestId: request.requestId, edit: { resign: true } })).rejects.toThrow(/^bad_request: held.release: edit.resign: /)
    const released = pushed(ws, 'breakpoint.released')
    await call('held.release', { requestId: request.requestId, edit: { body: '{"amount":5}', status: 202 } })
    expect(await answer).toMatchObject({ status: 202 })
    const release = (await released).payload
    expect(release.hold).toMatchObject({ end: 'edited', edit: { body: '{"amount":5}', status: 202 } })
    // Its endpoint, by which a served Hookloop with workspaces tells only that workspace's sockets.
    expect(release.endpointId).toBe(endpoint.id)
    await expect(call('held.drop', { requestId: request.requestId })).rejects.toThrow(/^not_found: /)

    const detail = await call('request.get', { id: request.requestId })
    expect(detail.response.status).toBe(202)
    expect(detail.hold?.summary).toMatch(/^held \d+ ms, edited, released$/)
    expect(Buffer.from(detail.bodyBase64, 'base64').toString()).toBe('{"amount":100}')
    await call('breakpoint.remove', { id: bp.id })
    expect((await call('breakpoint.list', {})).breakpoints).toEqual([])
  })

  it('holds by a breakpoint another process put in the data folder, and tells every UI', async () => {
    const { host, call, ws } = await openSession()
    await call('endpoint.create', { name: 'pay', scheme: null, secrets: [], dedupe: { type: 'header', name: 'webhook-id' } })
    const other = openDatabase({ file: host.engine.db.name })
    try {
      const changed = pushed(ws, 'breakpoints.changed')
      createBreakpointStore(other).save([parseBreakpoint({ matchers: [{ type: 'path', path: '/h/pay' }], limitMs: 100, onExpiry: { action: 'answer', status: 503 } }, 'from-cli')])
      expect((await changed).payload.breakpoints.map((b) => b.id)).toEqual(['from-cli'])
      const held = pushed(ws, 'breakpoint.held')
      expect(await post(`${host.engine.receiver.url}/h/pay`, '{}')).toMatchObject({ status: 503 })
      expect((await held).payload.breakpointId).toBe('from-cli')
    } finally {
      other.close()
    }
  })
})
