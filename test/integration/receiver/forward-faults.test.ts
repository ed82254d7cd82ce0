// The faults-around-your-app presets, each observed from both sides over real sockets: what the
// sender (the provider) was answered, and what the app saw.
import http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { explainRule, expandPreset, FORWARD_PRESET_IDS } from '../../../shared/receiver'
import { startHarness, type Harness } from './support'
import { post, startApp, stopAll, type App } from '../../support/forward-apps'

describe('forward presets', () => {
  let h: Harness
  let target: App
  afterEach(() => stopAll(h, target))
  async function setUp(preset: Record<string, unknown>): Promise<void> {
    target = await startApp((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`app saw ${req.body.length} bytes`))
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'app', dedupe: 'standard-webhooks' })
    await h.receiver.rules.add(endpoint.id, { ...preset, url: `${target.url}/hook` })
  }
  const send = (id = 'msg_1') => post(`${h.receiver.url}/h/app`, '{"n":1}', { 'webhook-id': id })
  const status = (answer: Awaited<ReturnType<typeof post>>) => ('error' in answer ? answer.error : answer.status)

  it('every preset expands into a rule that reads as a sentence', () => {
    const explained = FORWARD_PRESET_IDS.map((preset) => explainRule(expandPreset({ preset, url: 'http://127.0.0.1:3000/hook', ...(preset === 'fail-then-forward' ? { n: 3 } : {}) })))
    expect(explained).toEqual([
      'Every request: by arrival of the dedupe key — #1: reply 503; #2: reply 503; #3: reply 503; #4: forward to 127.0.0.1:3000 and answer with its answer; later arrivals repeat the last',
      'Every request: send a copy to 127.0.0.1:3000 and wait for its answer, then reply 500',
      'Every request: forward to 127.0.0.1:3000 after 11 s and answer with its answer',
      'Every request: send a copy to 127.0.0.1:3000 and wait for its answer, then forward to 127.0.0.1:3000 and answer with its answer',
      'Every request: send a copy to 127.0.0.1:3000 and wait for its answer, then reset the connection (TCP RST)',
    ])
  })

  it('fail the first 2 before your app sees them, then forward: 503, 503, then the app answers', async () => {
    await setUp({ preset: 'fail-then-forward', n: 2 })
    expect([status(await send()), status(await send()), status(await send())]).toEqual([503, 503, 200])
    expect(target.seen).toHaveLength(1)
    const third = h.receiver.requests.list()[0]
    expect(third?.duplicateNumber).toBe(3)
    expect(h.receiver.forwards.list(third?.id ?? -1).map((l) => l.response.status)).toEqual([200])
  })

  it('forward, but answer the provider 500 anyway: the app processed it before the provider heard 500', async () => {
    await setUp({ preset: 'forward-then-fail' })
    expect(status(await send())).toBe(500)
    expect(target.seen).toHaveLength(1)
    const [request] = h.receiver.requests.list()
    expect(request?.response.status).toBe(500)
    expect(h.receiver.forwards.list(request?.id ?? -1)).toMatchObject([{ kind: 'forward-copy', outcome: 'answered', response: { status: 200 } }])
  })

  it('forward twice: the app gets the same bytes twice, the provider gets the second answer', async () => {
    await setUp({ preset: 'forward-twice' })
    const answer = await send()
    expect(status(answer)).toBe(200)
    expect(target.seen.map((r) => r.body.toString())).toEqual(['{"n":1}', '{"n":1}'])
    expect(target.seen.map((r) => r.headers['webhook-id'])).toEqual(['msg_1', 'msg_1'])
  })

  it('your app answers, the provider sees a reset', async () => {
    await setUp({ preset: 'forward-then-reset' })
    expect(status(await send())).toBe('ECONNRESET')
    expect(target.seen).toHaveLength(1)
    await h.waitFor('request.responded')
    const [request] = h.receiver.requests.list()
    expect(request?.fault?.outcome).toBe('reset')
    expect(h.receiver.forwards.list(request?.id ?? -1)).toMatchObject([{ outcome: 'answered', response: { status: 200 } }])
  })

  it('forward late: the app still gets the request after the provider gave up', async () => {
    await setUp({ preset: 'forward-late', ms: 1000 })
    const req = http.request(`${h.receiver.url}/h/app`, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': 'msg_late' }, agent: false })
    req.on('error', () => {})
    req.end('{"n":1}')
    await h.waitFor('request.captured')
    req.destroy() // the provider times out and hangs up
    const seen = await target.received(1)
    expect(seen.headers['webhook-id']).toBe('msg_late')
    const responded = await h.waitFor('request.responded')
    expect(responded.outcome).toBe('client_gone')
  })
})
