import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { createTimelineViews } from '../../../electron/engine/host/timeline-views'
import { startHarness, type Harness } from './support'
import { createSqliteEngine } from '../../../electron/engine/store'

// Hookloop's receiver answering the verification handshakes as each provider's docs require
// (shared/receiver/handshakes.ts names the documents). The requests are written here as the providers
// send them — not built by Hookloop's own sender — and the answers are checked against what the
// docs say, with the HMACs computed here.

describe('handshake presets on real sockets', () => {
  let h: Harness
  afterEach(() => h?.stop())

  async function endpoint(preset: string, settings: Record<string, unknown> = {}) {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'hs', ...settings })
    await h.receiver.rules.add(e.id, { preset })
    return h.receiver.endpointUrl('hs')
  }

  /** Zoom's signature headers: x-zm-signature v0=<hex HMAC-SHA256 of "v0:<ts>:<body>">, seconds timestamp. */
  function zoomHeaders(secret: string, body: string) {
    const ts = String(Math.floor(Date.now() / 1000))
    return { 'content-type': 'application/json; charset=utf-8', 'x-zm-request-timestamp': ts, 'x-zm-signature': `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}` }
  }

  async function answered(res: Response) {
    const body = await res.text()
    await h.waitFor('request.responded')
    const [record] = h.receiver.requests.list()
    return { status: res.status, type: res.headers.get('content-type'), nosniff: res.headers.get('x-content-type-options'), body, record }
  }

  it('Slack url_verification: the signed POST from the docs gets 200 with the challenge, verified and recorded as a handshake', async () => {
    const secret = '8f742231b10e8888abcd99yyyzzz85a5'
    const url = await endpoint('slack-url-verification', { scheme: 'slack', secrets: [secret] })
    const body = JSON.stringify({ token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' })
    const ts = String(Math.floor(Date.now() / 1000))
    const signature = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-slack-request-timestamp': ts, 'x-slack-signature': signature, 'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)' }, body })
    const a = await answered(res)
    expect(a.status).toBe(200)
    expect(a.type).toMatch(/^text\/plain/)
    expect(a.body).toBe('3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P')
    expect(a.record?.verify).toMatchObject({ valid: true })
    expect(a.record?.fault).toMatchObject({ outcome: 'replied', step: { type: 'handshake', kind: 'slack-url-verification' } })
    expect(Buffer.from(a.record!.response.body!).toString()).toBe(a.body)
  })

  it('Slack: an ordinary event_callback is not a handshake — the preset lets it through to the default 200 OK', async () => {
    const url = await endpoint('slack-url-verification')
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'event_callback', event: { type: 'app_mention' } }) })
    const a = await answered(res)
    expect(a.body).toBe('OK')
    expect(a.record?.fault).toBeNull()
  })

  it('Zoom endpoint.url_validation: {plainToken, encryptedToken} with the hex HMAC of plainToken keyed with the endpoint secret', async () => {
    const secret = 'zoom-secret-token-123'
    const url = await endpoint('zoom-url-validation', { scheme: 'zoom', secrets: [secret] })
    const body = JSON.stringify({ payload: { plainToken: 'qgg8vlvZRS6UYooatFL8Aw' }, event_ts: Date.now(), event: 'endpoint.url_validation' })
    const res = await fetch(url, { method: 'POST', headers: zoomHeaders(secret, body), body })
    const a = await answered(res)
    expect(a.status).toBe(200)
    expect(a.type).toMatch(/^application\/json/)
    expect(JSON.parse(a.body)).toEqual({ plainToken: 'qgg8vlvZRS6UYooatFL8Aw', encryptedToken: createHmac('sha256', secret).update('qgg8vlvZRS6UYooatFL8Aw').digest('hex') })
    expect(a.record?.verify).toMatchObject({ valid: true })
  })

  it('Zoom: a validation request signed with another secret gets 401 and no encryptedToken, recorded with its verdict', async () => {
    const url = await endpoint('zoom-url-validation', { scheme: 'zoom', secrets: ['zoom-secret-token-123'] })
    const body = JSON.stringify({ payload: { plainToken: 'pt-forged' }, event_ts: Date.now(), event: 'endpoint.url_validation' })
    const res = await fetch(url, { method: 'POST', headers: zoomHeaders('someone-elses-secret', body), body })
    const a = await answered(res)
    expect(a.status).toBe(401)
    expect(a.body).toMatch(/^signature failed \(signature_mismatch\).*answered only when its signature verifies/)
    expect(a.body).not.toContain('encryptedToken')
    expect(a.record?.verify).toMatchObject({ valid: false, reason: 'signature_mismatch' })
  })

  it('Zoom: the step\u2019s own secret wins over the endpoint\u2019s; without any secret the answer is a 500 naming it', async () => {
    h = await startHarness()
    const withOwn = await h.receiver.endpoints.create({ slug: 'own', secrets: ['endpoint-secret'] })
    await h.receiver.rules.add(withOwn.id, { preset: 'zoom-url-validation', secret: 'zoom-app-secret' })
    const none = await h.receiver.endpoints.create({ slug: 'none' })
    await h.receiver.rules.add(none.id, { preset: 'zoom-url-validation' })
    const body = JSON.stringify({ payload: { plainToken: 'abc' }, event_ts: 1, event: 'endpoint.url_validation' })
    const own = await fetch(h.receiver.endpointUrl('own'), { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(((await own.json()) as { encryptedToken: string }).encryptedToken).toBe(createHmac('sha256', 'zoom-app-secret').update('abc').digest('hex'))
    const missing = await fetch(h.receiver.endpointUrl('none'), { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(missing.status).toBe(500)
    expect(await missing.text()).toMatch(/HMAC keyed with the app.s secret token; give the endpoint that secret/)
  })

  it('X CRC: GET ?crc_token=…&nonce=… gets {"response_token": "sha256=<base64 HMAC>"} as JSON', async () => {
    const secret = 'z3ZX4v7mAAUGykl3EcmkqbartmuW8VFOOzCloLx9Q45P0hLrFu'
    const url = await endpoint('x-crc', { secrets: [secret] })
    const res = await fetch(`${url}?crc_token=9b4507b3-9040-4669-9ca3-6b94edb50553&nonce=MTUyNjA1NjQ5MTkzMjk0Njk1MQ`)
    const a = await answered(res)
    expect(a.status).toBe(200)
    expect(a.type).toMatch(/^application\/json/)
    expect(JSON.parse(a.body)).toEqual({ response_token: `sha256=${createHmac('sha256', secret).update('9b4507b3-9040-4669-9ca3-6b94edb50553').digest('base64')}` })
    expect(a.record?.query).toContain('crc_token=')
    expect(a.record?.fault?.step).toEqual({ type: 'handshake', kind: 'x-crc' })
  })

  it('Microsoft Graph: POST ?validationToken=<encoded> with an empty body gets 200 text/plain with the token decoded', async () => {
    const url = await endpoint('graph-validation')
    const token = 'Validation: Testing client application reachability for subscription Request-Id: 522a8e7e-096a-494c-aaf1-ac0dcfca45b7'
    const res = await fetch(`${url}?validationToken=${encodeURIComponent(token)}`, { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' } })
    const a = await answered(res)
    expect(a.status).toBe(200)
    expect(a.type).toMatch(/^text\/plain/)
    expect(a.body).toBe(token)
  })

  it('Dropbox: GET ?challenge=… gets the challenge echoed, text/plain with X-Content-Type-Options: nosniff', async () => {
    const url = await endpoint('dropbox-challenge')
    const res = await fetch(`${url}?challenge=abc123`)
    const a = await answered(res)
    expect(a.status).toBe(200)
    expect(a.type).toMatch(/^text\/plain/)
    expect(a.nosniff).toBe('nosniff')
    expect(a.body).toBe('abc123')
  })

  it('a handshake step on a request without its challenge answers 400 naming what is missing; a delay before it is honoured', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'raw' })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'query', name: 'probe' }], steps: [{ type: 'handshake', kind: 'dropbox-challenge' }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'query', name: 'challenge', value: 'late' }], steps: [{ type: 'delay', ms: 5 }, { type: 'handshake', kind: 'dropbox-challenge' }] })
    const bad = await fetch(`${h.receiver.endpointUrl('raw')}?probe=1`)
    expect(bad.status).toBe(400)
    expect(await bad.text()).toBe('not a Dropbox challenge handshake: the request has no challenge query parameter')
    const late = await fetch(`${h.receiver.endpointUrl('raw')}?challenge=late`)
    expect(late.status).toBe(200)
    expect(late.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await late.text()).toBe('late')
    await h.waitFor('request.responded', (e) => e.status === 200)
    const record = h.receiver.requests.list().find((r) => r.query === 'challenge=late')
    expect(record?.fault).toMatchObject({ outcome: 'replied', step: { type: 'handshake', kind: 'dropbox-challenge' } })
    expect(record?.response.status).toBe(200)
  })

  it('the timeline names a handshake: its mark reads "handshake 200", a bodiless one’s row is named after it', async () => {
    const url = await endpoint('dropbox-challenge')
    await (await fetch(`${url}?challenge=abc123`)).text()
    await h.waitFor('request.responded')
    const { rows } = await createTimelineViews(createSqliteEngine(h.db, { closeDatabase: false })).page({}, 0, 10)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ kind: 'received', eventType: 'Dropbox challenge handshake', lastStatusCode: 200 })
    expect(rows[0]?.marks.map((m) => m.label)).toEqual(['handshake 200'])
  })
})
