import { afterAll, describe, expect, it } from 'vitest'
import { runHandshake } from '../../../electron/engine/providers'
import { freshPrivateKey } from '../../../electron/engine/signatures'
import { twitchVerifies } from './judges/twitch'
import { JUDGES } from './judges'
import { consumerPool, rawBody } from './support'

// Discord's PING and Twitch's challenge, both ways: Hookloop's request against a consumer that
// answers as the provider's docs say (a discord-interactions app; Twitch's documented handler),
// graded ✓, and the classic mistakes graded ✗ with the reason. Hookloop's receiver answering them
// for a real provider is in test/integration/receiver/handshakes-discord-twitch.test.ts.

const now = () => Date.now()

describe('Discord PING and Twitch challenge handshakes', () => {
  const consumers = consumerPool()
  afterAll(() => consumers.close())

  it('Discord: a discord-interactions app answers the signed PING with PONG; signed with another key it answers 401, graded ✗', async () => {
    const judge = JUDGES.discord!
    const app = await judge.start()
    try {
      expect(await runHandshake('discord-ping', { url: app.url, secret: judge.secret, now: now() })).toMatchObject({ ok: true, detail: 'answered the PING with a PONG' })
      expect(app.accepted).toEqual(['ping'])
      const stranger = await runHandshake('discord-ping', { url: app.url, secret: freshPrivateKey('ed25519'), now: now() })
      expect(stranger).toMatchObject({ ok: false, detail: expect.stringMatching(/^answered 401/) as unknown as string })
    } finally {
      await app.close()
    }
  })

  it('Discord: an app that answers a PING with an interaction response is named', async () => {
    const url = await consumers.url((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 4, data: { content: 'hi' } }))
    })
    expect((await runHandshake('discord-ping', { url, secret: freshPrivateKey('ed25519'), now: now() })).detail).toMatch(/PONG \(type 1\)/)
  })

  it('Twitch: the documented handler answers the verified challenge as text/plain; JSON and a wrong secret are graded ✗', async () => {
    const secret = 'twitch-eventsub-secret-4f2a9c'
    const handler = (contentType: string, wrap: (challenge: string) => string) =>
      consumers.url(async (req, res) => {
        const body = await rawBody(req)
        if (twitchVerifies(body, req.headers, secret) !== null) {
          res.writeHead(403).end()
          return
        }
        expect(req.headers['twitch-eventsub-message-type']).toBe('webhook_callback_verification')
        const { challenge } = JSON.parse(body.toString('utf8')) as { challenge: string }
        res.writeHead(200, { 'content-type': contentType }).end(wrap(challenge))
      })
    const documented = await handler('text/plain', (c) => c)
    expect(await runHandshake('twitch-challenge', { url: documented, secret, now: now() })).toMatchObject({ ok: true })
    expect(await runHandshake('twitch-challenge', { url: documented, secret: 'another-secret', now: now() })).toMatchObject({ ok: false, detail: expect.stringMatching(/^answered 403/) as unknown as string })
    const json = await handler('application/json', (c) => JSON.stringify({ challenge: c }))
    expect((await runHandshake('twitch-challenge', { url: json, secret, now: now() })).detail).toMatch(/raw challenge string only/)
  })
})
