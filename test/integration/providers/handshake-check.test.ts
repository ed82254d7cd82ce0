import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runConsumerCheck } from '../../../electron/engine/conformance/consumer'
import { HANDSHAKE_KINDS } from '../../../shared/receiver'
import { freshPrivateKey } from '../../../electron/engine/signatures'
import { startBoltApp, type BoltApp } from '../../support/bolt-app'
import { runCli } from '../../support/run-cli'
import { startHarness, type Harness } from '../receiver/support'
import { consumerPool, rawBody } from './support'

// `hookloop check --handshake` against real apps on 127.0.0.1: a Bolt app on its ExpressReceiver
// (Bolt answers url_verification itself), Hookloop's own receiver with the handshake presets, and
// apps written with the usual mistakes — each failure has to say what is wrong.

const SLACK_SECRET = '8f742231b10e8888abcd99yyyzzz85a5'

describe('hookloop check --handshake', () => {
  let bolt: BoltApp
  let hookloop: Harness
  const consumers = consumerPool()
  beforeAll(async () => {
    bolt = await startBoltApp(SLACK_SECRET)
    hookloop = await startHarness()
  })
  afterAll(async () => {
    await bolt.close()
    await hookloop.stop()
    await consumers.close()
  })
  const app = consumers.url
  const query = (url: string | undefined, name: string) => new URL(url ?? '', 'http://x').searchParams.get(name) ?? ''

  it('a Bolt ExpressReceiver answers Slack url_verification: the check passes, from the command line too', async () => {
    const result = await runConsumerCheck({ url: bolt.url, handshake: 'slack-url-verification', secret: SLACK_SECRET })
    expect(result).toMatchObject({ ok: true, scheme: null, handshake: 'slack-url-verification' })
    expect(result.checks).toHaveLength(1)
    expect(result.checks[0]).toMatchObject({ id: 'handshake_answered', severity: 'pass', detail: expect.stringMatching(/^answered the url_verification challenge in \d+ ms$/) as unknown as string })
    const cli = await runCli(['check', bolt.url, '--handshake', 'slack-url-verification', '--secret', SLACK_SECRET])
    expect(cli.code).toBe(0)
    expect(cli.stdout).toContain('✓ Answers the Slack url_verification handshake: answered the url_verification challenge')
    expect(cli.stdout).toMatch(/PASS: 1 of 1 checks pass/)
  })

  it('the same Bolt app, checked with the wrong signing secret, refuses the handshake (401): ✗ with the provider\u2019s requirement', async () => {
    const cli = await runCli(['check', bolt.url, '--handshake', 'slack-url-verification', '--secret', 'not-the-secret'])
    expect(cli.code).toBe(1)
    expect(cli.stdout).toMatch(/✗ Answers the Slack url_verification handshake: answered 401; the handshake needs 200 with the challenge/)
    expect(cli.stdout).toContain('fix: Slack needs 200 with the challenge as plain text')
  })

  it('Hookloop\u2019s own receiver with each handshake preset passes every handshake check', async () => {
    for (const kind of HANDSHAKE_KINDS) {
      // Discord signs its PING with an Ed25519 private key, not a shared secret.
      const secret = kind === 'discord-ping' ? freshPrivateKey('ed25519') : 'one-secret-for-all'
      const endpoint = await hookloop.receiver.endpoints.create({ slug: `own-${kind}`, secrets: [secret] })
      await hookloop.receiver.rules.add(endpoint.id, { preset: kind })
      const result = await runConsumerCheck({ url: hookloop.receiver.endpointUrl(`own-${kind}`), handshake: kind, secret })
      expect(result.checks[0], kind).toMatchObject({ severity: 'pass' })
    }
  })

  it('Zoom: base64 instead of hex fails naming it; a right answer as text/html only warns', async () => {
    const secret = 'zoom-secret-token'
    const zoom = (encoding: 'hex' | 'base64', type: string) =>
      app(async (req, res) => {
        const plainToken = (JSON.parse((await rawBody(req)).toString()) as { payload: { plainToken: string } }).payload.plainToken
        res.writeHead(200, { 'content-type': type }).end(JSON.stringify({ plainToken, encryptedToken: createHmac('sha256', secret).update(plainToken).digest(encoding) }))
      })
    const wrong = await runCli(['check', await zoom('base64', 'application/json'), '--handshake', 'zoom-url-validation', '--secret', secret])
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toContain('✗ Answers the Zoom endpoint.url_validation handshake: encryptedToken is not the hex HMAC-SHA256 of plainToken keyed with the secret token (the wrong secret, or base64 instead of hex?)')
    const html = await runConsumerCheck({ url: await zoom('hex', 'text/html'), handshake: 'zoom-url-validation', secret })
    expect(html.ok).toBe(true)
    expect(html.checks[0]).toMatchObject({ severity: 'warn', detail: expect.stringMatching(/but as text\/html; Zoom's docs ask for application\/json$/) as unknown as string })
  })

  it('X CRC with the wrong consumer secret, Graph answering JSON, Dropbox without nosniff: each fails with its reason', async () => {
    const crc = await app((req, res) => {
      const token = query(req.url, 'crc_token')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ response_token: `sha256=${createHmac('sha256', 'another-secret').update(token).digest('base64')}` }))
    })
    const x = await runConsumerCheck({ url: crc, handshake: 'x-crc', secret: 'x-consumer-secret' })
    expect(x.checks[0]?.detail).toMatch(/^response_token is not "sha256=" \+ base64 HMAC-SHA256 of crc_token keyed with the consumer secret/)

    const graph = await app((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ validationToken: query(req.url, 'validationToken') }))
    })
    const g = await runCli(['check', graph, '--handshake', 'graph-validation'])
    expect(g.code).toBe(1)
    expect(g.stdout).toMatch(/✗ Answers the Microsoft Graph validationToken handshake: the body is not the validationToken/)

    const dropbox = await app((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(query(req.url, 'challenge'))
    })
    const d = await runConsumerCheck({ url: dropbox, handshake: 'dropbox-challenge' })
    expect(d.checks[0]).toMatchObject({ severity: 'fail', detail: expect.stringMatching(/without X-Content-Type-Options: nosniff/) as unknown as string })
  })

  it('bad usage: an unknown handshake, a missing secret, and no scheme nor handshake exit 2', async () => {
    expect((await runCli(['check', bolt.url, '--handshake', 'nope'])).stderr).toMatch(/unknown handshake "nope"/)
    const noSecret = await runCli(['check', bolt.url, '--handshake', 'x-crc'])
    expect(noSecret.code).toBe(2)
    expect(noSecret.stderr).toMatch(/missing --secret/)
    expect((await runCli(['check', bolt.url, '--secret', 's'])).stderr).toMatch(/missing --scheme/)
  })
})
