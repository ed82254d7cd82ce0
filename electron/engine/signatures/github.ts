import type { VerifyInput, VerifyResult } from '../../../shared/signatures'
import { SCHEMES } from '../../../shared/signatures'
import { headerValue } from './headers'
import { hmac } from './mac'
import { fail } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { signingKey } from './secrets'
import { hmacScheme } from './hmac-scheme'

// GitHub: `sha256=` + hex HMAC-SHA256 of the body in X-Hub-Signature-256. GitHub still sends the
// legacy SHA-1 X-Hub-Signature too; we send it for realism but only accept SHA-256.
const meta = SCHEMES.github
const sha256 = hmacScheme(meta, { signatureHeader: 'x-hub-signature-256', prefix: 'sha256=', encoding: 'hex', template: '{body}', idHeader: 'x-github-delivery' })

export const github: SchemeModule = {
  sign(input: ResolvedSignInput): Record<string, string> {
    const legacy = hmac('sha1', signingKey(input.secret, meta), [input.body])
    return { ...sha256.sign(input), 'x-hub-signature': `sha1=${legacy.toString('hex')}` }
  },
  verify(input: VerifyInput): VerifyResult {
    const legacy = headerValue(input.headers, 'x-hub-signature')
    if (headerValue(input.headers, 'x-hub-signature-256') === undefined && legacy !== undefined) {
      return fail(meta.id, 'no_matching_version', 'Only the legacy SHA-1 X-Hub-Signature header is present: GitHub signs with SHA-256 in X-Hub-Signature-256, which this verifier checks.', { received: legacy })
    }
    return sha256.verify(input)
  },
}
