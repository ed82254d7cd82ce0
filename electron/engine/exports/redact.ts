// Redaction for exports: signature headers of every scheme, credentials (Authorization, Cookie …),
// every header and query parameter whose name says token, secret, password, key, auth or
// signature (shared/redaction.ts), and every secret Hookloop knows (endpoints, subscriptions,
// retired ones too). Headers and query parameters are redacted by name; then every secret and
// every redacted value is replaced wherever else it appears in the output (a body or a URL that
// echoes one), so none leaves in an export.
import { REDACTED } from '../../../shared/contract'
import { isSecretName, redactKnownValues, redactQuery, redactUrl } from '../../../shared/redaction'
import { SCHEMES } from '../../../shared/signatures'

const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']

/** Lower-case names of headers whose values are signatures, for every scheme (plus custom ones given). */
export function signatureHeaderNames(extra: readonly string[] = []): Set<string> {
  const names = new Set<string>(extra.map((n) => n.toLowerCase()))
  for (const meta of Object.values(SCHEMES)) if (meta.signatureHeader) names.add(meta.signatureHeader)
  return names
}

export function isSecretHeader(name: string, signatureHeaders: ReadonlySet<string>): boolean {
  const lower = name.toLowerCase()
  // x-hub-signature (GitHub's SHA-1 twin), x-*-signature of providers we have no scheme for.
  return signatureHeaders.has(lower) || CREDENTIAL_HEADERS.includes(lower) || lower.includes('signature')
}

/** What an export blanks: a secret header as above, or any name that says it holds a credential. */
function isRedactedHeader(name: string, signatureHeaders: ReadonlySet<string>): boolean {
  return isSecretHeader(name, signatureHeaders) || isSecretName(name)
}

export interface Redactor {
  readonly active: boolean
  headers(pairs: readonly [string, string][]): [string, string][]
  /** A URL (or path) with secret-named query parameters blanked. */
  url(url: string): string
  /** A query string (no '?') with secret-named parameters blanked. */
  query(query: string): string
  /** A secret value in a definition (endpoint or subscription secrets). */
  secret(value: string): string
  /** The final pass over the serialised export. */
  text(output: string): string
}

export function createRedactor(options: { keepSecrets: boolean; secrets: readonly string[]; customSignatureHeaders?: readonly string[] }): Redactor {
  const signatureHeaders = signatureHeaderNames(options.customSignatureHeaders)
  const seen = new Set<string>(options.secrets.filter((s) => s.length >= 4))
  if (options.keepSecrets) return { active: false, headers: (pairs) => pairs.map(([n, v]) => [n, v]), url: (u) => u, query: (q) => q, secret: (v) => v, text: (t) => t }
  return {
    active: true,
    headers(pairs) {
      return pairs.map(([name, value]) => {
        if (!isRedactedHeader(name, signatureHeaders)) return [name, value]
        if (value.length >= 8) seen.add(value)
        // Each signature of a multi-signature header too (v1,abc… v1,def…), in case one is echoed.
        for (const part of value.split(/[\s,;=]+/)) if (part.length >= 16) seen.add(part)
        return [name, REDACTED]
      })
    },
    url: (url) => redactUrl(url, seen),
    query: (query) => redactQuery(query, seen),
    secret: () => REDACTED,
    // Longest first, so a value that contains another is replaced whole.
    text: (output) => redactKnownValues(output, seen),
  }
}
