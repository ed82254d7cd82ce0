import type { KeyObject } from 'node:crypto'
import type { VerifyResult } from '../../../shared/signatures'
import { bodyVariants } from './body-variants'
import { constantTimeEqual } from './compare'
import type { IndexedKey, VerifyPlan } from './plan'
import { fail, secretsPhrase } from './result'
import { keyAlternatives } from './secrets'
import { isLocalUrl } from './url'

/** True when key/body/url produce one of the received signatures. */
export function produces(plan: VerifyPlan, key: Uint8Array | KeyObject, body: Uint8Array, url: string | undefined): boolean {
  return plan.compute(key, body, url).some((mac) => plan.received.some((sig) => constantTimeEqual(mac, sig)))
}

/**
 * Why no signature matched, found by actually trying the classic mistakes (wrong secret
 * encoding, re-serialised body, lost newline) before falling back to "wrong secret".
 */
export function explainMismatch(plan: VerifyPlan, keys: IndexedKey[]): VerifyResult {
  const { meta, input } = plan
  const first = keys[0]
  const expectedMac = first ? plan.compute(first.key, input.body, input.url)[0] : undefined
  const extra = { expected: expectedMac ? plan.display(expectedMac) : undefined, received: plan.receivedText }
  const mismatch = (detail: string): VerifyResult => fail(meta.id, 'signature_mismatch', detail, extra)

  if (input.body.length === 0) {
    return fail(meta.id, 'empty_body', 'The body is empty, so no signature can match: pass the raw request body to verify (a body parser probably consumed it first).', extra)
  }
  for (const { index } of keys) {
    for (const alternative of keyAlternatives(input.secrets[index] ?? '', meta)) {
      if (produces(plan, alternative.key, input.body, input.url)) {
        return mismatch(`The signature was made with ${alternative.hint}.`)
      }
    }
  }
  for (const variant of bodyVariants(input.body)) {
    if (keys.some(({ key }) => produces(plan, key, variant.body, input.url))) {
      return mismatch(`The signature matches ${variant.explanation}.`)
    }
  }
  const usesUrl = plan.usesUrl ?? meta.needsUrl
  if (usesUrl && input.url && isLocalUrl(input.url)) {
    return mismatch(`${meta.label} signs the public URL it called, but this was checked against the local ${input.url}: verify against the public tunnel URL instead.`)
  }
  const signed = ['body', ...(usesUrl ? ['URL'] : []), ...(plan.timestamp ? ['timestamp'] : [])]
  const changed = signed.length === 1 ? 'body' : `${signed.slice(0, -1).join(', ')} or ${signed[signed.length - 1]}`
  return mismatch(`No signature matches with ${secretsPhrase(input.secrets.length)}: the secret is probably wrong (or the ${changed} changed after signing).`)
}
