import twilio from 'twilio'
import { judgeConsumer, refuse } from '../support'
import type { Judge } from './types'

// Twilio's helper library as its webhook-security docs use it: form-encoded parameters go to
// twilio.validateRequest(authToken, X-Twilio-Signature, the full URL, params); a JSON body to
// validateRequestWithBody, with bodySHA256 in the URL. Twilio signs no time. Its parameters name
// no event type: `accepted` holds the SID of what it accepted.
const TOKEN = '12345abcdefghijklmnopqrstuvwxyz0'

export const twilioJudge: Judge = {
  provider: 'twilio', library: 'twilio 5', secret: TOKEN, namesNoType: true,
  start: () => judgeConsumer((raw, req) => {
    const body = raw.toString('utf8')
    const url = `http://127.0.0.1:${req.socket.localPort}${req.url}`
    const signature = String(req.headers['x-twilio-signature'])
    const form = String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')
    const params = Object.fromEntries(new URLSearchParams(body))
    const valid = form ? twilio.validateRequest(TOKEN, signature, url, params) : twilio.validateRequestWithBody(TOKEN, signature, url, body)
    if (!valid) refuse(403)
    return { accepted: form ? (params.MessageSid ?? params.CallSid ?? '') : 'json', answer: { headers: { 'content-type': 'text/xml' }, body: '<Response/>' } }
  }),
}
