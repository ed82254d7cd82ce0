// A careful webhook consumer, written the way the docs of each provider ask: verify the signature
// on the raw bytes with the provider's own library (standardwebhooks, @octokit/webhooks-methods),
// 401 when it fails, 400 when the body is not JSON, dedupe by the delivery id (2xx again), answer
// at once.
import { verify as verifyGithub } from '@octokit/webhooks-methods'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { header, serveConsumer, type RunningConsumer } from './server'

export interface CarefulOptions {
  scheme: 'standard-webhooks' | 'github'
  secret: string
}

export async function startCarefulConsumer(options: CarefulOptions): Promise<RunningConsumer & { processed: string[] }> {
  const seen = new Set<string>()
  const processed: string[] = []
  const webhook = options.scheme === 'standard-webhooks' ? new Webhook(options.secret) : null
  const consumer = await serveConsumer(async (headers, body) => {
    let id: string
    if (webhook) {
      try {
        webhook.verify(body, headers as Record<string, string>, { jsonParse: false })
      } catch (error) {
        if (error instanceof WebhookVerificationError) return { status: 401, body: `invalid signature: ${error.message}` }
        throw error
      }
      id = header(headers, 'webhook-id')
    } else {
      const signature = header(headers, 'x-hub-signature-256')
      if (!signature || !(await verifyGithub(options.secret, body.toString('utf8'), signature))) return { status: 401, body: 'invalid signature' }
      id = header(headers, 'x-github-delivery')
    }
    let event: { id?: unknown }
    try {
      event = JSON.parse(body.toString('utf8')) as { id?: unknown }
    } catch {
      return { status: 400, body: 'body is not JSON' }
    }
    if (seen.has(id)) return { status: 200, body: '{"duplicate":true}' }
    seen.add(id)
    processed.push(String(event.id ?? id))
    return { status: 200, body: '{"ok":true}' }
  })
  return Object.assign(consumer, { processed })
}
