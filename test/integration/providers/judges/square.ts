import { WebhooksHelper } from 'square'
import { rawBody, serve } from '../support'
import type { Judge } from './types'

// Square's WebhooksHelper.verifySignature over the notification URL and the body, as its docs
// show it. Square signs no time.
const KEY = 'hookloop-square-signature-key'

export const squareJudge: Judge = {
  provider: 'square',
  library: 'square 46',
  secret: KEY,
  async start() {
    const accepted: string[] = []
    const consumer = await serve(async (req, res) => {
      const body = (await rawBody(req)).toString('utf8')
      const notificationUrl = `http://127.0.0.1:${req.socket.localPort}${req.url}`
      const valid = await WebhooksHelper.verifySignature({ requestBody: body, signatureHeader: String(req.headers['x-square-hmacsha256-signature']), signatureKey: KEY, notificationUrl })
      if (!valid) return void res.writeHead(403).end()
      accepted.push((JSON.parse(body) as { type: string }).type)
      res.writeHead(200).end()
    })
    return { ...consumer, accepted }
  },
}
