// A signature verdict for a captured request whose file does not record one (a customer's HAR):
// the scheme's own check, run on the bytes and headers the file holds, with the secret the person
// gave (`hookloop import --secret`) and the time the request arrived (a stale timestamp is judged
// as the receiver judged it then, not today). Pure.
import { REDACTED } from '../../../shared/contract'
import { SCHEMES, type HeaderMap, type SchemeId } from '../../../shared/signatures'
import { headerValue } from '../exports'
import type { IncidentRequest } from '../exports'
import { verify } from '../signatures'

/** The verdict, or why there is none (a sentence for the note). */
export type CheckedVerdict = { verdict: { valid: boolean; reason: string } } | { unchecked: string }

export function checkSignature(request: IncidentRequest, scheme: SchemeId, secret: string): CheckedVerdict {
  const meta = SCHEMES[scheme]
  const signature = meta.signatureHeader ? headerValue(request.headers, meta.signatureHeader) : undefined
  if (signature === REDACTED) return { unchecked: `its ${meta.signatureHeader} header was redacted in the file` }
  if (meta.needsUrl && request.url === null) return { unchecked: `${meta.label} signs the URL, and the file does not say which` }
  const headers: HeaderMap = {}
  for (const [name, value] of request.headers) {
    const lower = name.toLowerCase()
    const had = headers[lower]
    headers[lower] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value]
  }
  try {
    const result = verify(scheme, { body: request.body, headers, secrets: [secret], now: Math.floor(request.at / 1000), ...(request.url ? { url: request.url } : {}) })
    return { verdict: { valid: result.valid, reason: result.reason } }
  } catch (error) {
    // A secret not in the scheme's format, say: the person learns which request and why.
    return { unchecked: `the ${meta.label} check could not run (${error instanceof Error ? error.message : String(error)})` }
  }
}
