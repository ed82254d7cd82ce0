import type { VerifyInput, VerifyResult } from '../../../shared/signatures'
import { SCHEMES } from '../../../shared/signatures'
import { headerValues } from './headers'
import { decodeSignature, hmac } from './mac'
import { fail } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { signingKey } from './secrets'
import { runPlan } from './verify-plan'

// PagerDuty V3 webhooks: X-PagerDuty-Signature is `v1=` + hex HMAC-SHA256 of the body with the
// subscription's secret; while a secret is rotated the header lists one per secret, comma
// separated (`v1=…,v1=…`), and any one matching is enough. No time is signed.
const meta = SCHEMES.pagerduty
const HEADER = 'x-pagerduty-signature'

export const pagerduty: SchemeModule = {
  sign(input: ResolvedSignInput): Record<string, string> {
    return { [HEADER]: `v1=${hmac('sha256', signingKey(input.secret, meta), [input.body]).toString('hex')}` }
  },

  verify(input: VerifyInput): VerifyResult {
    const values = headerValues(input.headers, HEADER)
    if (values.length === 0) return fail(meta.id, 'missing_header', `The ${HEADER} header is missing, so there is no ${meta.label} signature to check.`)
    const receivedText = values.join(',')
    const entries = receivedText.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')
    const v1 = entries.filter((entry) => entry.startsWith('v1='))
    if (v1.length === 0) {
      const versions = [...new Set(entries.map((entry) => /^([A-Za-z0-9]+)=/.exec(entry)?.[1]).filter((v) => v !== undefined))]
      if (versions.length > 0) return fail(meta.id, 'no_matching_version', `The ${HEADER} header carries only ${versions.map((v) => `${v}=`).join(', ')} signatures; ${meta.label} signs with v1=.`, { received: receivedText })
      return fail(meta.id, 'malformed_header', `The ${HEADER} header is not "v1=<hex>[,v1=<hex>…]".`, { received: receivedText })
    }
    const received = v1.map((entry) => decodeSignature(entry.slice(3), 'hex'))
    if (received.some((sig) => sig === undefined)) return fail(meta.id, 'malformed_header', `A v1= signature in ${HEADER} is not valid hex.`, { received: receivedText })
    return runPlan({
      meta,
      input,
      received: received.filter((sig) => sig !== undefined),
      receivedText,
      compute: (key, body) => [hmac('sha256', key, [body])],
      display: (mac) => `v1=${mac.toString('hex')}`,
    })
  },
}
