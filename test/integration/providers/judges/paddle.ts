import { Environment, Paddle } from '@paddle/paddle-node-sdk'
import { judgeConsumer } from '../support'
import type { Judge } from './types'

// Paddle's webhooks.unmarshal: verifies Paddle-Signature (5 s tolerance), then parses the event
// into its entity, as Paddle's docs show it.
const SECRET = 'pdl_ntfset_01hookloop_secretkey'

export const paddleJudge: Judge = {
  provider: 'paddle', library: '@paddle/paddle-node-sdk 3', secret: SECRET, signsTime: true,
  start() {
    const paddle = new Paddle('pdl_sdbx_apikey_hookloop', { environment: Environment.sandbox })
    return judgeConsumer(async (body, req) => ({ accepted: (await paddle.webhooks.unmarshal(body.toString('utf8'), SECRET, String(req.headers['paddle-signature']))).eventType }))
  },
}
