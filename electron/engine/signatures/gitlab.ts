import type { VerifyInput, VerifyResult } from '../../../shared/signatures'
import { SCHEMES } from '../../../shared/signatures'
import { constantTimeEqual } from './compare'
import { headerValues } from './headers'
import { fail, ok } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { decodeSecret } from './secrets'

// GitLab signs nothing: X-Gitlab-Token carries the hook's secret token as it was typed, and the
// receiver compares it (GitLab's docs: "compare it to the secret token you configured"). Body, id
// and time are not covered, so a changed body still verifies: only the token is checked.
const meta = SCHEMES.gitlab
const HEADER = 'x-gitlab-token'

/** A token is the secret itself: results show its first characters only, never the whole. */
function masked(token: string): string {
  const shown = Math.min(4, Math.floor(token.length / 3))
  return `${token.slice(0, shown)}… (${token.length} characters)`
}

export const gitlab: SchemeModule = {
  sign(input: ResolvedSignInput): Record<string, string> {
    const decoded = decodeSecret(input.secret, meta.secretFormat)
    if ('error' in decoded) throw new Error(`${meta.label} secret token is not usable: ${decoded.error}`)
    return { [HEADER]: input.secret }
  },

  verify(input: VerifyInput): VerifyResult {
    const values = headerValues(input.headers, HEADER)
    const token = values[0]
    if (token === undefined) return fail(meta.id, 'missing_header', `The ${HEADER} header is missing, so there is no GitLab secret token to compare.`)
    if (values.length > 1) return fail(meta.id, 'malformed_header', `The ${HEADER} header arrived ${values.length} times; GitLab sends one token.`, { received: values.map(masked).join(', ') })
    if (input.secrets.length === 0) return fail(meta.id, 'no_secret', `No secret was given, so the ${meta.label} token cannot be compared.`)
    const received = Buffer.from(token, 'utf8')
    // Compare with every secret (no early exit) so the time taken does not say which one matched.
    let matched: number | undefined
    input.secrets.forEach((secret, index) => {
      if (constantTimeEqual(received, Buffer.from(secret, 'utf8')) && matched === undefined) matched = index
    })
    if (matched === undefined) {
      const first = input.secrets[0] ?? ''
      const spaces = input.secrets.some((s) => s.trim() === token.trim()) ? ' They differ only in spaces or a newline around the token: paste it again without them.' : ''
      return fail(meta.id, 'signature_mismatch', `The ${HEADER} token matches ${input.secrets.length === 1 ? 'the secret' : `none of the ${input.secrets.length} secrets`}: the secret is probably wrong (GitLab sends the hook's secret token as typed in its settings).${spaces}`, { expected: masked(first), received: masked(token) })
    }
    const which = input.secrets.length > 1 ? ` with secret ${matched + 1} of ${input.secrets.length}` : ''
    return ok(meta.id, `The ${meta.label} secret token is valid${which} (GitLab signs neither body nor time: only the token is checked).`, { secretIndex: matched, received: masked(token) })
  },
}
