// Examples published in the providers' own documentation, checked against our verify() (and the
// provider's library where one exists).
import { Webhook as StandardWebhook } from 'standardwebhooks'
import { verify as octokitVerify } from '@octokit/webhooks-methods'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { sign, verify } from '../../../electron/engine/signatures'

describe('published test vectors', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('GitHub: "Hello, World!" with "It\'s a Secret to Everybody"', async () => {
    const signature = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'
    const body = Buffer.from('Hello, World!')
    expect(verify('github', { body, headers: { 'X-Hub-Signature-256': signature }, secrets: ["It's a Secret to Everybody"] }).valid).toBe(true)
    expect(sign('github', { body, secret: "It's a Secret to Everybody" })['x-hub-signature-256']).toBe(signature)
    expect(await octokitVerify("It's a Secret to Everybody", 'Hello, World!', signature)).toBe(true)
  })

  it('Standard Webhooks / Svix: the documented msg_p5jXN8AQM9LWM0D4loKWxJek example', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const payload = '{"test": 2432232314}'
    const headers = { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }
    expect(verify('standard-webhooks', { body: Buffer.from(payload), headers, secrets: [secret], now: 1614265330 }).valid).toBe(true)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(1614265330 * 1000)
    expect(new StandardWebhook(secret).verify(payload, headers)).toEqual({ test: 2432232314 })
  })

  it('Slack: the documented slash-command request', () => {
    const body = Buffer.from(
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
    )
    const headers = { 'X-Slack-Request-Timestamp': '1531420618', 'X-Slack-Signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503' }
    expect(verify('slack', { body, headers, secrets: ['8f742231b10e8888abcd99yyyzzz85a5'], now: 1531420618 + 10 }).valid).toBe(true)
    expect(verify('slack', { body, headers, secrets: ['8f742231b10e8888abcd99yyyzzz85a5'], now: 1531420618 + 3600 }).reason).toBe('timestamp_too_old')
  })

  it('Twilio: the documented voice request to https://mycompany.com/myapp.php?foo=1&bar=2', () => {
    const body = Buffer.from('CallSid=CA1234567890ABCDE&Caller=%2B12349013030&Digits=1234&From=%2B12349013030&To=%2B18005551212')
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2'
    const result = verify('twilio', { body, headers: { 'X-Twilio-Signature': '0/KCTR6DLpKmkAf8muzZqo1nDgQ=' }, secrets: ['12345'], url })
    expect(result.valid).toBe(true)
    expect(sign('twilio', { body, secret: '12345', url })['x-twilio-signature']).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=')
  })
})
