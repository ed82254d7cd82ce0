// The signature scheme a spec declares, as one of Hookloop's (shared/signatures.ts): an
// `x-webhook-signature: <scheme id>` extension, else a security scheme that is an API key in a
// header when that header is a scheme's signature header (X-Hub-Signature-256 → github).
import { SCHEMES, type SchemeId } from '../../../shared/signatures'

export const SIGNATURE_EXTENSION = 'x-webhook-signature'

const isSchemeId = (v: unknown): v is SchemeId => typeof v === 'string' && Object.prototype.hasOwnProperty.call(SCHEMES, v)

/** A header-borne security scheme: OpenAPI `apiKey` / AsyncAPI `httpApiKey` with `in: header`. */
export interface HeaderSecurity {
  name: string
  header: string
}

export function schemeOfHeader(header: string): SchemeId | null {
  const lower = header.toLowerCase()
  const found = (Object.keys(SCHEMES) as SchemeId[]).find((id) => SCHEMES[id].signatureHeader === lower)
  return found ?? null
}

/**
 * `declared`: the extension's values, nearest first (operation, then its parents). A value that
 * names no scheme is an error the caller reports with its place.
 */
export function declaredSignature(declared: { value: unknown; where: string }[], security: HeaderSecurity[]): { scheme: SchemeId; from: string } | null | { unknown: string; where: string } {
  const given = declared.find((d) => d.value !== undefined)
  if (given) {
    if (isSchemeId(given.value)) return { scheme: given.value, from: `${SIGNATURE_EXTENSION} at ${given.where}` }
    return { unknown: String(given.value), where: given.where }
  }
  for (const s of security) {
    const scheme = schemeOfHeader(s.header)
    if (scheme) return { scheme, from: `security scheme ${s.name} (header ${s.header})` }
  }
  return null
}

export function schemeList(): string {
  return Object.keys(SCHEMES).join(', ')
}
