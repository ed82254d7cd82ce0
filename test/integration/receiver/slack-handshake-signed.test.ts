import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from './support'

// Slack signs its url_verification request like every Events API request (v0 HMAC over
// "v0:<timestamp>:<body>" with the app's signing secret). The handshake preset on an endpoint with
// that secret must verify before it answers, or anyone who finds the public URL passes Slack's
// check for it. The requests are written here as Slack sends them, the HMAC computed here.

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5'
const CHALLENGE = '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P'
const BODY = JSON.stringify({ token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl', challenge: CHALLENGE, type: 'url_verification' })

function slackHeaders(secret: string, at = Math.floor(Date.now() / 1000)): Record<string, string> {
  const ts = String(at)
  return {
    'content-type': 'application/json',
    'x-slack-request-timestamp': ts,
    'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${ts}:${BODY}`).digest('hex')}`,
    'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
  }
}

describe('the Slack url_verification preset verifies the signature first', () => {
  let h: Harness
  afterEach(async () => {
    await h?.stop()
  })

  async function send(settings: Record<string, unknown>, headers: Record<string, string>) {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'slack', ...settings })
    await h.receiver.rules.add(e.id, { preset: 'slack-url-verification' })
    const res = await fetch(h.receiver.endpointUrl('slack'), { method: 'POST', headers, body: BODY })
    const body = await res.text()
    await h.waitFor('request.responded')
    const [record] = h.receiver.requests.list()
    return { status: res.status, body, record }
  }

  it('signed with the endpoint\'s secret: 200 with the challenge, the verdict ok', async () => {
    const a = await send({ scheme: 'slack', secrets: [SECRET] }, slackHeaders(SECRET))
    expect([a.status, a.body]).toEqual([200, CHALLENGE])
    expect(a.record?.verify).toMatchObject({ valid: true, reason: 'ok' })
  })

  it('signed with another secret: 401 "signature failed", no challenge echoed, recorded with the verdict and the step', async () => {
    const a = await send({ scheme: 'slack', secrets: [SECRET] }, slackHeaders('not-the-signing-secret'))
    expect(a.status).toBe(401)
    expect(a.body).toMatch(/^signature failed \(signature_mismatch\): .+ The Slack url_verification handshake is answered only when its signature verifies\.$/)
    expect(a.body).not.toContain(CHALLENGE)
    expect(a.record?.verify).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(a.record?.response.status).toBe(401)
    expect(Buffer.from(a.record!.response.body!).toString()).toBe(a.body)
    expect(a.record?.fault).toMatchObject({ outcome: 'replied', step: { type: 'handshake', kind: 'slack-url-verification' } })
  })

  it('unsigned, or signed 10 minutes ago: 401 naming the reason', async () => {
    const unsigned = await send({ scheme: 'slack', secrets: [SECRET] }, { 'content-type': 'application/json' })
    expect(unsigned.status).toBe(401)
    expect(unsigned.body).toMatch(/^signature failed \(missing_header\)/)
    await h.stop()
    const stale = await send({ scheme: 'slack', secrets: [SECRET] }, slackHeaders(SECRET, Math.floor(Date.now() / 1000) - 600))
    expect(stale.status).toBe(401)
    expect(stale.body).toMatch(/^signature failed \(timestamp_too_old\)/)
  })

  it('an endpoint with no secret has nothing to verify with: it answers the challenge, as before', async () => {
    const a = await send({}, { 'content-type': 'application/json' })
    expect([a.status, a.body]).toEqual([200, CHALLENGE])
    expect(a.record?.verify ?? null).toBeNull()
  })
})
