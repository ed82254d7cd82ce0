import { describe, expect, it } from 'vitest'
import { freshPrivateKey, publicKeyText, sign, verify } from '../../../electron/engine/signatures'
import { runCli } from '../../support/run-cli'
import { JUDGES } from './judges'

// Discord's key pair as an app holds it. Every catalog event against discord-interactions is in
// official-libraries.test.ts (judges/discord.ts); the PING in handshakes-discord-twitch.test.ts.

describe('Discord keys', () => {
  it('an endpoint verifies with the hex public key the Developer Portal shows, or with the whsk_ private key', () => {
    const secret = freshPrivateKey('ed25519')
    expect(secret).toMatch(/^whsk_/)
    const publicKey = publicKeyText(secret, 'ed25519') as string
    expect(publicKey).toMatch(/^[0-9a-f]{64}$/)
    const body = Buffer.from('{"type":1}')
    const headers = sign('discord', { body, secret, timestamp: 1_700_000_000 })
    expect(headers['x-signature-ed25519']).toMatch(/^[0-9a-f]{128}$/)
    expect(verify('discord', { body, headers, secrets: [publicKey] })).toMatchObject({ valid: true })
    expect(verify('discord', { body, headers, secrets: [secret] })).toMatchObject({ valid: true })
    expect(() => sign('discord', { body, secret: publicKey })).toThrow(/cannot sign/)
  })
})

describe('hookloop trigger discord', () => {
  it('signs with the private key, names the public key the app holds, and discord-interactions accepts the delivery', async () => {
    const judge = JUDGES.discord!
    const app = await judge.start()
    try {
      const run = await runCli(['trigger', 'discord', 'application_command', '--to', app.url, '--secret', judge.secret])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toContain(`the consumer verifies with the public key: ${publicKeyText(judge.secret, 'ed25519') as string}`)
      expect(app.accepted).toEqual(['application_command'])
    } finally {
      await app.close()
    }
  })
})
