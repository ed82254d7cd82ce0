// The headers a captured request's sender put on every request (its user agent, a provider's
// topic or hook id), sent again by the scenario's replay subscription so the run's requests look
// like the customer's. Left out: what the scheme and the sender make per request (signature,
// timestamp, event id, length), what a proxy or a tunnel adds, credentials, and redacted values.
// A header whose value changed between requests cannot be one subscription's: a note says so.
import { REDACTED } from '../../../shared/contract'
import { SCHEMES, type SchemeId } from '../../../shared/signatures'
import type { IncidentRequest } from '../exports'

const MADE_PER_REQUEST = new Set(['content-length', 'host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'accept-encoding', 'cookie', 'authorization', 'proxy-authorization', 'x-real-ip', 'true-client-ip', 'via', 'forwarded', 'bypass-tunnel-reminder'])
const MADE_BY_THE_WAY = /^(x-forwarded-|x-hookloop-|cf-|x-amzn-|proxy-|sec-|:)/

/** What the scheme makes per request: signatures (a legacy one too), timestamp, id; not the headers it only reads (X-GitHub-Event). */
function signedHeaders(scheme: SchemeId): string[] {
  const meta = SCHEMES[scheme]
  return meta.headers.filter((h) => h === meta.timestampHeader || h === meta.idHeader || /signature|hmac/.test(h))
}

export function replayedHeaders(requests: readonly IncidentRequest[], scheme: SchemeId | null, idHeader: string | null, notes: string[], slug: string): Record<string, string> {
  const skip = new Set([...MADE_PER_REQUEST, ...(scheme ? signedHeaders(scheme) : []), ...(idHeader ? [idHeader.toLowerCase()] : [])])
  const values = new Map<string, { name: string; values: Set<string>; count: number }>()
  for (const r of requests) {
    const seen = new Set<string>()
    for (const [name, value] of r.headers) {
      const lower = name.toLowerCase()
      if (skip.has(lower) || MADE_BY_THE_WAY.test(lower) || seen.has(lower)) continue
      seen.add(lower)
      const entry = values.get(lower) ?? { name: lower, values: new Set<string>(), count: 0 }
      entry.values.add(value)
      entry.count++
      values.set(lower, entry)
    }
  }
  const headers: Record<string, string> = {}
  const varied: string[] = []
  for (const entry of values.values()) {
    const [only] = [...entry.values]
    if (entry.values.size === 1 && entry.count === requests.length && only !== undefined && only !== REDACTED) headers[entry.name] = only
    else if (!entry.values.has(REDACTED)) varied.push(entry.name)
  }
  if (varied.length > 0) {
    const one = varied.length === 1
    notes.push(`endpoint ${slug}: header${one ? '' : 's'} ${varied.join(', ')} changed between requests or ${one ? 'was' : 'were'} not on every one, so ${one ? 'it is' : 'they are'} not sent again (the scenario sends the headers every request had, the same)`)
  }
  return headers
}
