import { timingSafeEqual } from 'node:crypto'
import { rawBody, serve } from '../support'
import type { Judge } from './types'

// GitLab publishes no Node library for webhooks. Its docs give the check: compare X-Gitlab-Token
// with the secret token configured on the hook; X-Gitlab-Event names the hook ("Merge Request
// Hook" for object_kind merge_request). Written here from the docs, not with Hookloop's verifier.

const SECRET = 'hookloop-gitlab-secret-token'

function sameToken(received: string | string[] | undefined, expected: string): boolean {
  if (typeof received !== 'string') return false
  const a = Buffer.from(received)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** `merge_request` → `Merge Request Hook`, as GitLab names its hooks. */
function hookName(objectKind: string): string {
  return `${objectKind.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ')} Hook`
}

export const gitlabJudge: Judge = {
  provider: 'gitlab',
  library: "GitLab's documented token check",
  secret: SECRET,
  async start() {
    const accepted: string[] = []
    const deliveryIds: string[] = []
    const consumer = await serve(async (req, res) => {
      const body = await rawBody(req)
      if (!sameToken(req.headers['x-gitlab-token'], SECRET)) return void res.writeHead(401).end('X-Gitlab-Token does not match')
      const event = JSON.parse(body.toString('utf8')) as { object_kind?: string; object_attributes?: { action?: string } }
      if (!event.object_kind || req.headers['x-gitlab-event'] !== hookName(event.object_kind)) return void res.writeHead(400).end(`X-Gitlab-Event ${String(req.headers['x-gitlab-event'])} does not name object_kind ${String(event.object_kind)}`)
      const action = event.object_attributes?.action
      deliveryIds.push(String(req.headers['idempotency-key']))
      accepted.push(action ? `${event.object_kind}.${action}` : event.object_kind)
      res.writeHead(200).end()
    })
    return { url: consumer.url, accepted, deliveryIds, close: consumer.close }
  },
}
