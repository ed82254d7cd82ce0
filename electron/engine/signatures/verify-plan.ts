import type { VerifyResult } from '../../../shared/signatures'
import { explainMismatch, produces } from './diagnose'
import type { IndexedKey, VerifyPlan } from './plan'
import { fail, ok } from './result'
import { secretKey } from './secrets'
import { checkTolerance, nowSeconds } from './tolerance'

/** Fails early when a URL-signed scheme has no URL to sign. */
export function requireUrl(plan: Pick<VerifyPlan, 'meta' | 'input'>): VerifyResult | undefined {
  if (plan.input.url) return undefined
  return fail(plan.meta.id, 'missing_url', `${plan.meta.label} signs the public URL the provider called: pass that URL (the tunnel URL, not the local one) to verify.`)
}

/** The shared second half of every verify(): secrets, constant-time match, time, diagnosis. */
export function runPlan(plan: VerifyPlan): VerifyResult {
  const { meta, input } = plan
  const secrets = input.secrets
  if (secrets.length === 0) return fail(meta.id, 'no_secret', `No secret was given, so the ${meta.label} signature cannot be checked.`)

  const keys: IndexedKey[] = []
  const badFormat: string[] = []
  secrets.forEach((secret, index) => {
    const key = secretKey(secret, meta.secretFormat)
    if ('key' in key) keys.push({ index, key: key.key })
    else badFormat.push(`secret ${index + 1} is not a valid ${meta.label} secret: ${key.error}`)
  })

  // Try every key (no early exit) so the work done does not depend on which secret matched.
  let matched: IndexedKey | undefined
  for (const candidate of keys) {
    if (produces(plan, candidate.key, input.body, input.url) && !matched) matched = candidate
  }

  if (!matched) {
    if (badFormat.length > 0) {
      const sentence = badFormat.join('; ')
      return fail(meta.id, 'bad_secret_format', sentence.charAt(0).toUpperCase() + sentence.slice(1) + '.', { received: plan.receivedText })
    }
    return explainMismatch(plan, keys)
  }

  let skewSeconds: number | undefined
  if (plan.timestamp) {
    const now = nowSeconds(input.now)
    const tolerance = { ...plan.timestamp.tolerance, seconds: input.toleranceSeconds ?? plan.timestamp.tolerance.seconds }
    const late = checkTolerance(meta, plan.timestamp.value, now, tolerance, plan.timestamp.what)
    if (late) return late
    skewSeconds = now - plan.timestamp.value
  }
  const which = secrets.length > 1 ? ` with secret ${matched.index + 1} of ${secrets.length}` : ''
  const note = plan.note ? ` (${plan.note})` : ''
  return ok(meta.id, `The ${meta.label} signature is valid${which}${note}.`, {
    secretIndex: matched.index,
    skewSeconds,
    received: plan.receivedText,
  })
}
