import { WebhooksHelper } from 'square'
import { judgeConsumer, refuse } from '../support'
import type { Judge } from './types'

// Square's WebhooksHelper.verifySignature over the notification URL and the body, as its docs
// show it. Square signs no time.
const KEY = 'hookloop-square-signature-key'

export const squareJudge: Judge = {
  provider: 'square', library: 'square 46', secret: KEY,
  start: () => judgeConsumer(async (raw, req) => {
    const body = raw.toString('utf8')
    const notificationUrl = `http://127.0.0.1:${req.socket.localPort}${req.url}`
    const valid = await WebhooksHelper.verifySignature({ requestBody: body, signatureHeader: String(req.headers['x-square-hmacsha256-signature']), signatureKey: KEY, notificationUrl })
    if (!valid) refuse(403)
    return { accepted: (JSON.parse(body) as { type: string }).type }
  }),
}
