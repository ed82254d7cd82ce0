import Stripe from 'stripe'
import { judgeConsumer } from '../support'
import type { Judge } from './types'

// stripe.webhooks.constructEvent(rawBody, Stripe-Signature, secret), as Stripe's docs show it
// (default tolerance 300 s).
const SECRET = 'whsec_hookloopStripeTestSecret'
const stripe = new Stripe('sk_test_hookloop')

export const stripeJudge: Judge = {
  provider: 'stripe', library: 'stripe 23', secret: SECRET, signsTime: true,
  start: () => judgeConsumer((body, req) => ({ accepted: stripe.webhooks.constructEvent(body, String(req.headers['stripe-signature']), SECRET).type })),
}
