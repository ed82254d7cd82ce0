import { EventWebhook, EventWebhookHeader } from '@sendgrid/eventwebhook'
import { freshPrivateKey, publicKeyText } from '../../../../electron/engine/signatures'
import { judgeConsumer } from '../support'
import type { Judge } from './types'

// @sendgrid/eventwebhook as its README uses it: the verification key (base64 public key) through
// convertPublicKeyToECDSA, then verifySignature over the raw body, signature and timestamp headers.
// Deliveries are signed with the private key (`secret`); the consumer holds only its public key.
const secret = freshPrivateKey('ecdsa-p256')
const verificationKey = publicKeyText(secret, 'ecdsa-p256')
if (typeof verificationKey !== 'string') throw new Error(verificationKey.error)

export const sendgridJudge: Judge = {
  provider: 'sendgrid', library: '@sendgrid/eventwebhook 8', secret,
  start() {
    const webhook = new EventWebhook()
    const key = webhook.convertPublicKeyToECDSA(verificationKey)
    return judgeConsumer((body, req) => {
      const signature = String(req.headers[EventWebhookHeader.SIGNATURE().toLowerCase()] ?? '')
      const timestamp = String(req.headers[EventWebhookHeader.TIMESTAMP().toLowerCase()] ?? '')
      if (!webhook.verifySignature(key, body, signature, timestamp)) throw new Error('signature refused')
      return { accepted: (JSON.parse(body.toString('utf8')) as Array<{ event: string }>).map((event) => event.event) }
    })
  },
}
