import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packSubscription } from '../../../electron/engine/providers'
import { attemptsFinished, startSender } from '../sender/support'
import { twilioJudge } from './judges/twilio'
import type { JudgeConsumer } from './judges'

// Twilio beyond its catalog (official-libraries.test.ts delivers those): a JSON body is signed
// through bodySHA256 in the URL, and the pack sends form parameters as Twilio does.

describe('Twilio: validateRequestWithBody accepts a JSON body', () => {
  let consumer: JudgeConsumer
  beforeAll(async () => {
    consumer = await twilioJudge.start()
  })
  afterAll(() => consumer.close())

  it('a JSON body is signed through bodySHA256 and validates with validateRequestWithBody', async () => {
    const rig = await startSender()
    try {
      await rig.sender.createSubscription({ id: 'json', target: { url: consumer.url }, scheme: 'twilio', secrets: [twilioJudge.secret], policy: { preset: 'twilio', max_attempts: 1 } })
      const finished = attemptsFinished(rig.sender, 1)
      await rig.sender.publish({ eventType: 'com.twilio.messaging.message.delivered', payload: { messageSid: 'SM123', status: 'delivered' } })
      const [attempt] = await finished
      expect(attempt?.outcome).toBe('http_200')
      expect(attempt?.url).toMatch(/\?bodySHA256=[0-9a-f]{64}$/)
      expect(consumer.accepted.at(-1)).toBe('json')
    } finally {
      await rig.close()
    }
  })

  it('the pack sends what Twilio sends: form-encoded, with its user agent', () => {
    expect(packSubscription('twilio', { target: { url: consumer.url } })).toMatchObject({ scheme: 'twilio', provider: 'twilio', policy: 'twilio' })
  })
})
