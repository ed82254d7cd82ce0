// The one door to every signature scheme: sign() for the sender, verify() for the receiver, the
// inspector and the CLI. Each scheme lives in its own module; this file only dispatches.
import type { SchemeId, SignInput, VerifyInput, VerifyResult } from '../../../shared/signatures'
import { freshId } from './ids'
import type { SchemeModule } from './scheme'
import { standardWebhooks } from './standard-webhooks'
import { svix } from './svix'

export { SCHEMES, SCHEME_IDS, isSchemeId } from '../../../shared/signatures'
export type { SchemeId, SchemeMeta, SignInput, VerifyInput, VerifyResult, VerifyReason, CustomHmacOptions, HeaderMap } from '../../../shared/signatures'
export { SecretFormatError } from './secrets'
export { constantTimeEqual } from './compare'

function moduleFor(scheme: SchemeId): SchemeModule {
  switch (scheme) {
    case 'standard-webhooks':
      return standardWebhooks
    case 'svix':
      return svix
    case 'stripe':
    case 'github':
    case 'shopify':
    case 'slack':
    case 'twilio':
    case 'square':
    case 'paddle':
    case 'linear':
    case 'zoom':
    case 'custom':
      throw new Error(`signature scheme ${scheme} is not available yet`)
    default: {
      const never: never = scheme
      throw new Error(`unknown signature scheme ${String(never)}`)
    }
  }
}

/**
 * Headers to send (lower-case names). A missing id gets a fresh one, a missing timestamp the
 * current time. Throws SecretFormatError for an unusable secret, Error for missing inputs (URL).
 */
export function sign(scheme: SchemeId, input: SignInput): Record<string, string> {
  return moduleFor(scheme).sign({
    ...input,
    id: input.id ?? freshId(scheme),
    timestamp: input.timestamp ?? Math.floor(Date.now() / 1000),
  })
}

/** Never throws for bad requests: every failure is a VerifyResult with a reason and a sentence. */
export function verify(scheme: SchemeId, input: VerifyInput): VerifyResult {
  return moduleFor(scheme).verify(input)
}
