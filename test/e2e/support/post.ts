// Webhooks a test sends straight to a Hookloop endpoint, as a provider would.
import { Webhook } from 'standardwebhooks'

/** POSTs a JSON body with these headers and reads the answer through; its status. */
export async function postJson(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } })
  await response.arrayBuffer()
  return response.status
}

/** The same, signed with `secret` by the Standard Webhooks library under the event id `id`. */
export function postStandardWebhook(url: string, secret: string, id: string, body: string): Promise<number> {
  const now = new Date()
  return postJson(url, body, { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, now, body) })
}
