import { createHmac } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { App, LogLevel } from '@slack/bolt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HANDSHAKE_KINDS, handshakeAnswer, runHandshake } from '../../../electron/engine/providers'
import { freshPrivateKey } from '../../../electron/engine/signatures'
import { runCli } from '../../support/run-cli'
import { consumerPool, rawBody } from './support'

// The verification handshakes, made by Hookloop's sender against real HTTP consumers on
// 127.0.0.1 and graded: Slack's against a real Bolt app (Bolt answers url_verification itself),
// the others against handlers written from each provider's docs — and against handlers making the
// classic mistakes, which the grade names.

const now = () => Date.now()

describe('handshakes', () => {
  let bolt: App
  let boltUrl = ''
  const consumers = consumerPool()
  beforeAll(async () => {
    bolt = new App({ signingSecret: 'slack-signing-secret', authorize: async () => ({ botToken: 'xoxb-x', botId: 'B1', botUserId: 'U1' }), logLevel: LogLevel.ERROR })
    const server = (await bolt.start(0)) as unknown as { address(): AddressInfo }
    boltUrl = `http://127.0.0.1:${server.address().port}/slack/events`
  })
  afterAll(async () => {
    await bolt.stop()
    await consumers.close()
  })
  const consumer = consumers.url

  it('Slack url_verification: a Bolt app answers it; with the wrong signing secret it refuses, graded ✗', async () => {
    expect(await runHandshake('slack-url-verification', { url: boltUrl, secret: 'slack-signing-secret', now: now() })).toMatchObject({ ok: true })
    const wrong = await runHandshake('slack-url-verification', { url: boltUrl, secret: 'another-secret', now: now() })
    expect(wrong).toMatchObject({ ok: false, detail: expect.stringMatching(/^answered 401/) as unknown as string })
  })

  it('Zoom endpoint.url_validation: the docs\u2019 answer passes; base64 instead of hex is named', async () => {
    const secret = 'zoom-secret-token'
    const answer = (encoding: 'hex' | 'base64') =>
      consumer(async (req, res) => {
        const body = JSON.parse((await rawBody(req)).toString()) as { event: string; payload: { plainToken: string } }
        const plainToken = body.payload.plainToken
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ plainToken, encryptedToken: createHmac('sha256', secret).update(plainToken).digest(encoding) }))
      })
    expect(await runHandshake('zoom-url-validation', { url: await answer('hex'), secret, now: now() })).toMatchObject({ ok: true })
    expect((await runHandshake('zoom-url-validation', { url: await answer('base64'), secret, now: now() })).detail).toMatch(/base64 instead of hex/)
  })

  it('X CRC, Microsoft Graph validationToken, Dropbox challenge: the documented answers pass, the usual mistakes do not', async () => {
    const secret = 'x-consumer-secret'
    const crc = await consumer((req, res) => {
      const token = new URL(req.url ?? '', 'http://x').searchParams.get('crc_token') ?? ''
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ response_token: `sha256=${createHmac('sha256', secret).update(token).digest('base64')}` }))
    })
    expect(await runHandshake('x-crc', { url: crc, secret, now: now() })).toMatchObject({ ok: true })
    expect(await runHandshake('x-crc', { url: crc, secret: 'not-it', now: now() })).toMatchObject({ ok: false })

    const graph = (type: string) =>
      consumer((req, res) => {
        const token = new URL(req.url ?? '', 'http://x').searchParams.get('validationToken') ?? ''
        res.writeHead(200, { 'content-type': type }).end(token)
      })
    expect(await runHandshake('graph-validation', { url: await graph('text/plain'), now: now() })).toMatchObject({ ok: true })
    expect((await runHandshake('graph-validation', { url: await graph('application/json'), now: now() })).detail).toMatch(/needs text\/plain/)

    const dropbox = (nosniff: boolean) =>
      consumer((req, res) => {
        const challenge = new URL(req.url ?? '', 'http://x').searchParams.get('challenge') ?? ''
        res.writeHead(200, { 'content-type': 'text/plain', ...(nosniff ? { 'x-content-type-options': 'nosniff' } : {}) }).end(challenge)
      })
    expect(await runHandshake('dropbox-challenge', { url: await dropbox(true), now: now() })).toMatchObject({ ok: true })
    expect((await runHandshake('dropbox-challenge', { url: await dropbox(false), now: now() })).detail).toMatch(/nosniff/)
  })

  it('handshakeAnswer is what each grade accepts (the answer a Hookloop receiver gives)', async () => {
    for (const kind of HANDSHAKE_KINDS) {
      // Discord signs its PING with an Ed25519 private key, not a shared secret.
      const secret = kind === 'discord-ping' ? freshPrivateKey('ed25519') : 'shared-secret'
      const url = await consumer(async (req, res) => {
        const u = new URL(req.url ?? '', 'http://x')
        const body = (await rawBody(req)).toString()
        const json = body ? (JSON.parse(body) as { challenge?: string; payload?: { plainToken: string } }) : {}
        const challenge = u.searchParams.get('crc_token') ?? u.searchParams.get('validationToken') ?? u.searchParams.get('challenge') ?? json.challenge ?? json.payload?.plainToken ?? ''
        const answer = handshakeAnswer(kind, challenge, secret)
        res.writeHead(answer.status, answer.headers).end(answer.body)
      })
      expect(await runHandshake(kind, { url, secret, now: now() }), kind).toMatchObject({ ok: true })
    }
  })

  it('hookloop trigger --handshake grades from the command line (exit 0 / 1 / 2)', async () => {
    const ok = await consumer((req, res) => {
      const challenge = new URL(req.url ?? '', 'http://x').searchParams.get('challenge') ?? ''
      res.writeHead(200, { 'content-type': 'text/plain', 'x-content-type-options': 'nosniff' }).end(challenge)
    })
    const pass = await runCli(['trigger', '--handshake', 'dropbox-challenge', '--to', ok])
    expect(pass.code).toBe(0)
    expect(pass.stdout).toMatch(/^✓ dropbox-challenge → .*: echoed the challenge with nosniff/)
    const fail = await runCli(['trigger', '--handshake', 'slack-url-verification', '--to', boltUrl, '--secret', 'nope'])
    expect(fail.code).toBe(1)
    expect(fail.stdout).toMatch(/^✗ slack-url-verification/)
    expect((await runCli(['trigger', '--handshake', 'zoom-url-validation', '--to', ok])).stderr).toMatch(/needs --secret/)
  })
})
