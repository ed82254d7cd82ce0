// Forward mode through the host's command layer over the real control socket, with a real app on
// loopback: an endpoint's "Forward to your app" targets are set, changed and cleared (refusals name
// the field), a request sent through reaches the app, the request detail carries both legs, the
// timeline's mark says whether the app saw it, a forward preset takes the target, and a resend
// adds a leg.
import { describe, expect, it } from 'vitest'
import { downPort, post, startApp } from '../../support/forward-apps'
import { useHostSessions } from './support/session'

const openSession = useHostSessions()

describe('forward mode through the host', () => {
  it('sets a target, forwards, shows both legs and the app line, adds a preset, resends', async () => {
    const { host: h, call } = await openSession()
    const app = await startApp((req, res) => res.writeHead(201, { 'content-type': 'application/json', 'x-app': 'orders' }).end('{"ok":true}'))
    try {
      const endpoint = await call('endpoint.create', { name: 'orders', scheme: null, secrets: [], dedupe: { type: 'header', name: 'webhook-id' }, forwardTo: [`${app.url}/webhooks`] })
      expect(endpoint.forwardTo).toEqual([`${app.url}/webhooks`])

      const answer = await post(endpoint.localUrl, '{"type":"order.paid"}', { 'webhook-id': 'msg_1' })
      expect('status' in answer && answer.status).toBe(201)
      const seen = await app.received(1)
      expect(seen.url).toBe('/webhooks')
      expect(seen.body.toString()).toBe('{"type":"order.paid"}')

      await h.engine.quiesce()
      const { rows } = await call('timeline.page', { offset: 0, limit: 10 })
      const row = rows.find((r) => r.eventId === 'msg_1')
      const mark = row?.marks[0]
      expect(mark?.app?.label).toMatch(/^app: 201 in \d+ ms$/)
      expect(mark?.app?.tone).toBe('ok')

      const detail = await call('request.get', { id: mark?.id ?? -1 })
      expect(detail.response.status).toBe(201)
      expect(detail.legs).toHaveLength(1)
      const leg = detail.legs[0]!
      expect(leg.kind).toBe('forward')
      expect(leg.request.url).toBe(`${app.url}/webhooks`)
      expect(Buffer.from(leg.request.bodyBase64, 'base64').toString()).toBe('{"type":"order.paid"}')
      expect(leg.request.headers.find((x) => x.name.toLowerCase() === 'webhook-id')?.value).toBe('msg_1')
      expect(leg.response.status).toBe(201)
      expect(leg.response.headers.find((x) => x.name.toLowerCase() === 'x-app')?.value).toBe('orders')
      expect(Buffer.from(leg.response.bodyBase64, 'base64').toString()).toBe('{"ok":true}')
      expect(leg.summary).toMatch(/^your app answered 201 in \d+ ms$/)

      const rule = await call('rule.addPreset', { endpointId: endpoint.id, preset: 'fail-then-forward', parameters: { n: 2 } })
      expect(rule.explain).toContain(app.url.replace('http://', ''))
      expect(rule.explain).toMatch(/503/)

      const resent = await call('request.resend', { id: detail.id, mode: 'broken', body: '{"type":"order.refunded"}' })
      expect(resent.kind).toBe('resend')
      expect(resent.response.status).toBe(201)
      expect((await app.received(2)).body.toString()).toBe('{"type":"order.refunded"}')
      const again = await call('request.get', { id: detail.id })
      expect(again.legs.map((l) => l.kind)).toEqual(['forward', 'resend'])
      await h.engine.quiesce()
      const after = await call('timeline.page', { offset: 0, limit: 10 })
      expect(after.rows.find((r) => r.eventId === 'msg_1')?.marks[0]?.app?.label).toMatch(/^app: 201 in \d+ ms ×2$/)

      const cleared = await call('endpoint.setForwardTo', { id: endpoint.id, forwardTo: [] })
      expect(cleared.forwardTo).toEqual([])
      await expect(call('request.resend', { id: detail.id, mode: 'as-is' })).rejects.toThrow(/bad_request: request\.resend: to: .*no forward target/)
      await expect(call('rule.addPreset', { endpointId: endpoint.id, preset: 'forward-twice' })).rejects.toThrow(/forward target first/)
    } finally {
      await app.close()
    }
  })

  it('refuses a target that is not http(s) or loops back to the receiver, naming the field; the host keeps going', async () => {
    const { host: h, call } = await openSession()
    const endpoint = await call('endpoint.create', { name: 'loop', scheme: null, secrets: [], dedupe: null })
    await expect(call('endpoint.setForwardTo', { id: endpoint.id, forwardTo: ['ftp://127.0.0.1/x'] })).rejects.toThrow(/bad_request: endpoint\.setForwardTo: forwardTo\.0: a forward target must be http:\/\/ or https:\/\//)
    await expect(call('endpoint.setForwardTo', { id: endpoint.id, forwardTo: [`${h.engine.receiver.url}/h/loop`] })).rejects.toThrow(/bad_request: endpoint\.setForwardTo: forwardTo: .*points back at this receiver/)
    await expect(call('endpoint.setForwardTo', { id: endpoint.id, forwardTo: ['http://127.0.0.1:1/a', `${h.engine.receiver.url}/x`] })).rejects.toThrow(/forwardTo\.1: .*a loop/)
    await expect(call('endpoint.create', { name: 'bad', scheme: null, secrets: [], dedupe: null, forwardTo: [`${h.engine.receiver.url}/h/bad`] })).rejects.toThrow(/bad_request: endpoint\.create: forwardTo: .*points back/)
    await expect(call('endpoint.setForwardTo', { id: 'nope', forwardTo: [] })).rejects.toThrow(/not_found/)
    // Nothing was saved by the refusals, and the host still answers.
    const snapshot = await call('snapshot', {})
    expect(snapshot.endpoints.map((e) => [e.name, e.forwardTo])).toEqual([['loop', []]])
  })

  it('an app that is down: the sender gets 502, the leg and the timeline say so', async () => {
    const { host: h, call } = await openSession()
    const port = await downPort()
    const endpoint = await call('endpoint.create', { name: 'down', scheme: null, secrets: [], dedupe: null })
    await call('endpoint.setForwardTo', { id: endpoint.id, forwardTo: [`http://127.0.0.1:${port}/hook`] })
    const answer = await post(endpoint.localUrl, '{}')
    expect('status' in answer && answer.status).toBe(502)
    await h.engine.quiesce()
    const { rows } = await call('timeline.page', { offset: 0, limit: 10 })
    const mark = rows[0]?.marks[0]
    expect(mark?.app).toMatchObject({ outcome: 'refused', label: 'app: down', tone: 'failed' })
    const detail = await call('request.get', { id: mark?.id ?? -1 })
    expect(detail.legs[0]?.summary).toMatch(/^your app is down: connection refused/)
    expect(detail.legs[0]?.response.status).toBeNull()
  })
})
