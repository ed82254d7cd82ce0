import { judgeConsumer, matches, refuse } from '../support'
import type { Judge } from './types'

// GitLab publishes no Node library for webhooks. Its docs give the check: compare X-Gitlab-Token
// with the secret token configured on the hook; X-Gitlab-Event names the hook ("Merge Request
// Hook" for object_kind merge_request). Written here from the docs, not with Hookloop's verifier.

const SECRET = 'hookloop-gitlab-secret-token'

/** `merge_request` → `Merge Request Hook`, as GitLab names its hooks. */
function hookName(objectKind: string): string {
  return `${objectKind.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ')} Hook`
}

export const gitlabJudge: Judge = {
  provider: 'gitlab', library: "GitLab's documented token check", secret: SECRET,
  start: () => judgeConsumer((body, req) => {
    if (!matches(req.headers['x-gitlab-token'], SECRET)) refuse(401, 'X-Gitlab-Token does not match')
    const event = JSON.parse(body.toString('utf8')) as { object_kind?: string; object_attributes?: { action?: string } }
    if (!event.object_kind || req.headers['x-gitlab-event'] !== hookName(event.object_kind)) refuse(400, `X-Gitlab-Event ${String(req.headers['x-gitlab-event'])} does not name object_kind ${String(event.object_kind)}`)
    const action = event.object_attributes?.action
    return { accepted: action ? `${event.object_kind}.${action}` : event.object_kind, deliveryId: String(req.headers['idempotency-key']) }
  }, { deliveryIds: true }),
}
