// Which header and query-parameter names carry credentials, and pure functions that blank them:
// exports (HAR, cURL, case files) and logs (`hookloop listen`, the engine's log lines) call these,
// so a `?token=…` or an `X-Gitlab-Token` never leaves in either. No I/O, no Node-only API: the
// renderer may use them too.

/** What replaces a redacted value (exports and logs alike). */
export const REDACTED_VALUE = '[redacted]'

// A name is split into words (non-alphanumerics and camelCase humps); a word that is, or ends
// with, one of these says the value is a credential: X-Gitlab-Token, X-Webhook-Secret,
// X-Auth-Token, access_token, apiKey, client_secret, X-Hub-Signature-256, password, sig.
const SECRET_WORD_ENDINGS = ['token', 'secret', 'password', 'passwd', 'pwd', 'key', 'signature', 'credential', 'credentials', 'cookie']
const SECRET_WORDS = new Set(['auth', 'authorization', 'authentication', 'sig', 'hmac', 'jwt', 'session', 'sessionid'])
// An idempotency key names an event, it grants nothing; redacting it would break dedupe on replay.
const NOT_SECRET = new Set(['idempotency-key', 'x-idempotency-key', 'idempotency_key'])

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
}

/** True when a header or query-parameter name says its value is a secret (token, secret, password, key, auth, signature). */
export function isSecretName(name: string): boolean {
  if (NOT_SECRET.has(name.toLowerCase())) return false
  return words(name).some((w) => SECRET_WORDS.has(w) || SECRET_WORD_ENDINGS.some((end) => w.endsWith(end)))
}

/**
 * A query string (without '?') with every secret-named parameter's value replaced; the rest is
 * left byte for byte (no re-encoding). `seen` collects the values removed, so a caller can blank
 * them wherever else they appear.
 */
export function redactQuery(query: string, seen?: Set<string>): string {
  if (query === '') return query
  return query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=')
      if (eq < 0) return part
      const rawName = part.slice(0, eq)
      let name = rawName
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '))
      } catch {
        // A malformed escape: judge the name as sent.
      }
      if (!isSecretName(name)) return part
      const value = part.slice(eq + 1)
      if (seen && value.length >= 4) {
        seen.add(value)
        try {
          const decoded = decodeURIComponent(value.replace(/\+/g, ' '))
          if (decoded.length >= 4) seen.add(decoded)
        } catch {
          // Kept as sent only.
        }
      }
      return `${rawName}=${REDACTED_VALUE}`
    })
    .join('&')
}

/** A URL or a path with its query string redacted (see redactQuery); the fragment is dropped from judgement but kept. */
export function redactUrl(url: string, seen?: Set<string>): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const hash = url.indexOf('#', q)
  const query = hash < 0 ? url.slice(q + 1) : url.slice(q + 1, hash)
  return `${url.slice(0, q + 1)}${redactQuery(query, seen)}${hash < 0 ? '' : url.slice(hash)}`
}

/** Header pairs with every secret-named header's value replaced (values collected into `seen`). */
export function redactHeaderPairs(pairs: readonly (readonly [string, string])[], seen?: Set<string>): [string, string][] {
  return pairs.map(([name, value]) => {
    if (!isSecretName(name)) return [name, value]
    if (seen && value.length >= 8) seen.add(value)
    return [name, REDACTED_VALUE]
  })
}

/**
 * Every known secret value replaced wherever it appears in a text (a log line, an export), the
 * longest first so a value that contains another goes whole; JSON-escaped forms too. Values
 * shorter than 4 characters are left alone: blanking them would blank ordinary text.
 */
export function redactKnownValues(text: string, secrets: Iterable<string>): string {
  let out = text
  const values = [...new Set(secrets)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)
  for (const value of values) {
    out = out.split(value).join(REDACTED_VALUE)
    const escaped = JSON.stringify(value).slice(1, -1)
    if (escaped !== value) out = out.split(escaped).join(REDACTED_VALUE)
  }
  return out
}

// name=value after ? or & in free text (a log line holding a URL), up to a space, & or #.
const QUERY_PAIR = /([?&])([^=&\s#?]+)=([^&\s#]*)/g

/**
 * For log lines: every `?name=value` / `&name=value` whose name says secret gets its value blanked,
 * wherever in the line it stands, and every known secret value is removed.
 */
export function redactForLog(text: string, secrets: Iterable<string> = []): string {
  const queried = text.replace(QUERY_PAIR, (whole, lead: string, name: string) => {
    let decoded = name
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '))
    } catch {
      // Judge the name as sent.
    }
    return isSecretName(decoded) ? `${lead}${name}=${REDACTED_VALUE}` : whole
  })
  return redactKnownValues(queried, secrets)
}
