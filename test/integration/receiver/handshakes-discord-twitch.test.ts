import { createHmac, generateKeyPairSync, sign } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from './support'

// Hookloop's receiver answering Discord's PING and Twitch's EventSub challenge for a real
// provider. The requests are written here as the providers' docs describe them (Ed25519 and HMAC
// computed with node:crypto, not Hookloop's signing code); the endpoint holds what the consumer
// would: Discord's public key as the Developer Portal shows it, Twitch's subscription secret.

describe('Discord and Twitch handshake presets on real sockets', () => {
  let h: Harness
  afterEach(() => h?.stop())

  async function endpoint(preset: string, settings: Record<string, unknown>) {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'hs', ...settings })
    await h.receiver.rules.add(e.id, { preset })
    return h.receiver.endpointUrl('hs')
  }

  async function answered(res: Response) {
    const body = await res.text()
    await h.waitFor('request.responded')
    const [record] = h.receiver.requests.list()
    return { status: res.status, type: res.headers.get('content-type'), body, record }
  }

  const discordKeys = () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    const hex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex')
    return { privateKey, hex }
  }
  const discordHeaders = (privateKey: ReturnType<typeof discordKeys>['privateKey'], body: string) => {
    const ts = String(Math.floor(Date.now() / 1000))
    return { 'content-type': 'application/json', 'x-signature-timestamp': ts, 'x-signature-ed25519': sign(null, Buffer.from(ts + body), privateKey).toString('hex') }
  }

  it('Discord PING: signed with the app\u2019s key, answered 200 {"type": 1}; signed with another key, 401', async () => {
    const keys = discordKeys()
    const url = await endpoint('discord-ping', { scheme: 'discord', secrets: [keys.hex] })
    const body = JSON.stringify({ id: '1180000000000000100', application_id: '1180000000000000001', type: 1, token: 'aW50ZXJhY3Rpb246dG9rZW4', version: 1, user: { id: '1180000000000000200', username: 'discord', discriminator: '0', global_name: null, avatar: null } })
    const a = await answered(await fetch(url, { method: 'POST', headers: discordHeaders(keys.privateKey, body), body }))
    expect(a.status).toBe(200)
    expect(a.type).toMatch(/^application\/json/)
    expect(JSON.parse(a.body)).toEqual({ type: 1 })
    expect(a.record?.verify).toMatchObject({ valid: true })
    expect(a.record?.fault).toMatchObject({ step: { type: 'handshake', kind: 'discord-ping' } })

    const forged = await fetch(url, { method: 'POST', headers: discordHeaders(discordKeys().privateKey, body), body })
    expect(forged.status).toBe(401)
    expect(await forged.text()).toMatch(/^signature failed \(signature_mismatch\)/)
  })

  it('Discord: an application command (type 2) is not a PING — the preset lets it through', async () => {
    const keys = discordKeys()
    const url = await endpoint('discord-ping', { scheme: 'discord', secrets: [keys.hex] })
    const body = JSON.stringify({ id: '1180000000000000101', application_id: '1180000000000000001', type: 2, data: { id: '1', name: 'order', type: 1 }, token: 't', version: 1 })
    const a = await answered(await fetch(url, { method: 'POST', headers: discordHeaders(keys.privateKey, body), body }))
    expect(a.body).toBe('OK')
    expect(a.record?.fault).toBeNull()
  })

  it('Twitch webhook_callback_verification: the verified challenge comes back as text/plain', async () => {
    const secret = 'twitch-subscription-secret'
    const url = await endpoint('twitch-challenge', { scheme: 'twitch', secrets: [secret] })
    const challenge = 'pogchamp-kappa-360noscope-vohiyo'
    const body = JSON.stringify({ challenge, subscription: { id: 'f1c2a387-161a-49f9-a165-0f21d7a4e1c4', status: 'webhook_callback_verification_pending', type: 'channel.follow', version: '2', cost: 1, condition: { broadcaster_user_id: '12826', moderator_user_id: '12826' }, transport: { method: 'webhook', callback: 'https://example.com/webhooks/callback' }, created_at: '2019-11-16T10:11:12.634234626Z' } })
    const id = 'e76c6bd4-55c9-4987-8304-da1588d8988b'
    const ts = new Date().toISOString().replace('Z', '634234626Z').replace(/\.(\d{3})634234626Z$/, '.$1634234Z')
    const signature = `sha256=${createHmac('sha256', secret).update(id + ts + body).digest('hex')}`
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'twitch-eventsub-message-id': id, 'twitch-eventsub-message-timestamp': ts, 'twitch-eventsub-message-signature': signature, 'twitch-eventsub-message-type': 'webhook_callback_verification', 'twitch-eventsub-subscription-type': 'channel.follow', 'twitch-eventsub-subscription-version': '2' }, body })
    const a = await answered(res)
    expect(a.status).toBe(200)
    expect(a.type).toMatch(/^text\/plain/)
    expect(a.body).toBe(challenge)
    expect(a.record?.verify).toMatchObject({ valid: true })
  })
})
