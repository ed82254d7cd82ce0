// Redaction for exports: signature headers of every scheme, credentials (Authorization, Cookie …)
// and every secret Hookloop knows (endpoints, subscriptions, retired ones too). Headers are
// redacted by name; then every secret and every redacted value is replaced wherever else it
// appears in the output (a body or a URL that echoes one), so none leaves in an export.
import { REDACTED } from '../../../shared/exports'
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

export interface Redactor {
  readonly active: boolean
  headers(pairs: readonly [string, string][]): [string, string][]
  /** A secret value in a definition (endpoint or subscription secrets). */
  secret(value: string): string
  /** The final pass over the serialised export. */
  text(output: string): string
}

export function createRedactor(options: { keepSecrets: boolean; secrets: readonly string[]; customSignatureHeaders?: readonly string[] }): Redactor {
  const signatureHeaders = signatureHeaderNames(options.customSignatureHeaders)
  const seen = new Set<string>(options.secrets.filter((s) => s.length >= 4))
  if (options.keepSecrets) return { active: false, headers: (pairs) => pairs.map(([n, v]) => [n, v]), secret: (v) => v, text: (t) => t }
  return {
    active: true,
    headers(pairs) {
      return pairs.map(([name, value]) => {
        if (!isSecretHeader(name, signatureHeaders)) return [name, value]
        if (value.length >= 8) seen.add(value)
        // Each signature of a multi-signature header too (v1,abc… v1,def…), in case one is echoed.
        for (const part of value.split(/[\s,;=]+/)) if (part.length >= 16) seen.add(part)
        return [name, REDACTED]
      })
    },
    secret: () => REDACTED,
    text(output) {
      let out = output
      // Longest first, so a value that contains another is replaced whole.
      for (const value of [...seen].sort((a, b) => b.length - a.length)) {
        out = out.split(value).join(REDACTED)
        const escaped = JSON.stringify(value).slice(1, -1)
        if (escaped !== value) out = out.split(escaped).join(REDACTED)
      }
      return out
    },
  }
}
