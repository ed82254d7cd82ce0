import { createHmac } from 'node:crypto'
import { rawBody, serve } from '../support'
import type { Judge } from './types'

// Zoom publishes no Node library for webhooks: its docs give the check as code (HMAC-SHA256 of
// `v0:${x-zm-request-timestamp}:${body}` with the secret token, hex, compared with
// x-zm-signature), written here from the docs, independent of Hookloop's verifier. The docs'
// check compares no time, so neither does this one.
const TOKEN = 'hookloop-zoom-secret-token'

export const zoomJudge: Judge = {
  provider: 'zoom',
  library: "Zoom's documented check",
  secret: TOKEN,
  async start() {
    const accepted: string[] = []
    const consumer = await serve(async (req, res) => {
      const body = (await rawBody(req)).toString('utf8')
      const expected = `v0=${createHmac('sha256', TOKEN).update(`v0:${String(req.headers['x-zm-request-timestamp'])}:${body}`).digest('hex')}`
      if (req.headers['x-zm-signature'] !== expected) return void res.writeHead(401).end()
      accepted.push((JSON.parse(body) as { event: string }).event)
      res.writeHead(200).end()
    })
    return { ...consumer, accepted }
  },
}
