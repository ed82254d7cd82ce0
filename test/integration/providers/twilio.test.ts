import twilio from 'twilio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { packSubscription } from '../../../electron/engine/providers'
import { attemptsFinished, startSender } from '../sender/helpers'
import { closeAll, CORRUPT, providerSender, rawBody, serve, WRONG_SECRET, type Consumer } from './harness'

// Twilio's helper library as its webhook-security docs use it: the form-encoded parameters go to
// twilio.validateRequest(authToken, X-Twilio-Signature, the full URL, params); a JSON body to
// validateRequestWithBody, with bodySHA256 in the URL. Twilio signs no timestamp: no stale case.

const TOKEN = '12345abcdefghijklmnopqrstuvwxyz0'

describe('Twilio: validateRequest accepts Hookloop deliveries', () => {
  let consumer: Consumer
  const seen: Array<Record<string, string>> = []
  const sender = providerSender('twilio')
  beforeAll(async () => {
    consumer = await serve(async (req, res) => {
      const body = (await rawBody(req)).toString('utf8')
      const url = `http://127.0.0.1:${req.socket.localPort}${req.url}`
      const signature = String(req.headers['x-twilio-signature'])
      const form = String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')
      const params = Object.fromEntries(new URLSearchParams(body))
      const valid = form ? twilio.validateRequest(TOKEN, signature, url, params) : twilio.validateRequestWithBody(TOKEN, signature, url, body)
      if (!valid) {
        res.writeHead(403).end()
        return
      }
      seen.push(form ? params : { json: body })
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<Response/>')
    })
  })
  afterAll(() => closeAll(sender, consumer))

  for (const event of EVENT_CATALOG.twilio) {
    it(`${event.type}: a form-encoded request that validates`, async () => {
      const attempt = await sender.deliver(consumer.url, { secret: TOKEN, eventType: event.type })
      expect(attempt.outcome).toBe('http_200')
      expect(seen[seen.length - 1]?.AccountSid).toMatch(/^AC/)
    })
  }

  it('a JSON body is signed through bodySHA256 and validates with validateRequestWithBody', async () => {
    const rig = startSender()
    try {
      rig.sender.createSubscription({ id: 'json', target: { url: consumer.url }, scheme: 'twilio', secrets: [TOKEN], policy: { preset: 'twilio', max_attempts: 1 } })
      const finished = attemptsFinished(rig.sender, 1)
      rig.sender.publish({ eventType: 'com.twilio.messaging.message.delivered', payload: { messageSid: 'SM123', status: 'delivered' } })
      const [attempt] = await finished
      expect(attempt?.outcome).toBe('http_200')
      expect(attempt?.url).toMatch(/\?bodySHA256=[0-9a-f]{64}$/)
    } finally {
      await rig.close()
    }
  })

  it('refuses a wrong auth token and a corrupted signature', async () => {
    for (const faults of [WRONG_SECRET, CORRUPT]) {
      const attempt = await sender.deliver(consumer.url, { secret: TOKEN, eventType: 'message.received', faults })
      expect(attempt.outcome).toBe('http_403')
    }
  })

  it('the pack sends what Twilio sends: form-encoded, with its user agent', () => {
    expect(packSubscription('twilio', { target: { url: consumer.url } })).toMatchObject({ scheme: 'twilio', provider: 'twilio', policy: 'twilio' })
  })
})
