import { Signature } from '@hubspot/api-client'
import { judgeConsumer } from '../support'
import type { Judge } from './types'

// @hubspot/api-client's Signature.isValid with signatureVersion v3, as HubSpot's "Validating
// requests" page shows it: method, the full URL the request was made to, the raw body, the
// X-HubSpot-Request-Timestamp value and the client secret (it also refuses a timestamp older than
// 5 minutes, by the wall clock).
const secret = 'hubspot-client-secret-0b1c2d3e'

export const hubspotJudge: Judge = {
  provider: 'hubspot', library: '@hubspot/api-client 13', secret, signsTime: true,
  start: () => judgeConsumer((body, req) => {
    const url = `http://${String(req.headers.host)}${req.url ?? ''}`
    const valid = Signature.isValid({
      signatureVersion: 'v3',
      method: req.method ?? 'POST',
      url,
      requestBody: body.toString('utf8'),
      timestamp: Number(req.headers['x-hubspot-request-timestamp']),
      signature: String(req.headers['x-hubspot-signature-v3'] ?? ''),
      clientSecret: secret,
    })
    if (!valid) throw new Error('signature refused')
    return { accepted: (JSON.parse(body.toString('utf8')) as Array<{ subscriptionType: string }>).map((event) => event.subscriptionType) }
  }),
}
