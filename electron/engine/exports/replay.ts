// Replays imported requests against a URL, one after another, re-signed with a given scheme and
// secret when asked (the export's signatures are redacted, or were made with someone else's
// secret). The id header of the scheme is kept, so a replay is the same message to a deduper.
// A request whose signature did not match when it arrived is re-signed with a stand-in wrong
// secret instead: the mismatch is the symptom a replay reproduces, and the result says so.
import { Agent, request } from 'undici'
import { REDACTED, type ReplayItem, type ReplayResult } from '../../../shared/contract'
import { freshSecret } from '../../../shared/secrets'
import { SCHEMES, type CustomHmacOptions, type SchemeId } from '../../../shared/signatures'
import { classifyNetworkError } from '../sender'
import { sign } from '../signatures'
import { headerValue } from './body'
import { isSecretHeader, signatureHeaderNames } from './redact'

export interface ReplayOptions {
  to: string
  /** Re-sign each request: its old signature headers are dropped and new ones added. */
  resign?: { scheme: SchemeId; secret: string; custom?: CustomHmacOptions }
  /** Unix ms for the new signatures' timestamps (default: now). */
  now?: () => number
  /** Per request, default 30 s. */
  timeoutMs?: number
}

/** Headers that belong to the old connection or to the old run, never resent. */
const HOP = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade', 'x-hookloop-attempt'])

/** Receiver-side outcome words → what a client sees, so "same outcome" compares like with like. */
function clientView(outcome: string | null): string | null {
  switch (outcome) {
    case 'timed_out':
    case 'client_gone':
      return 'timeout'
    case 'closed':
    case 'malformed':
    case 'no_response':
      return 'connection_error'
    default:
      return outcome
  }
}

/** The original failed its signature check for the secret, not for its timing or its form. */
const mismatched = (item: ReplayItem) => item.original_verify?.valid === false && item.original_verify.reason === 'signature_mismatch'

function prepare(item: ReplayItem, options: ReplayOptions): { headers: [string, string][]; dropped: string[]; standIn: boolean } {
  const signatureHeaders = signatureHeaderNames(options.resign?.custom ? [options.resign.custom.header] : [])
  const resign = options.resign
  const schemeHeaders = new Set(resign ? SCHEMES[resign.scheme].headers : [])
  const idHeader = resign ? (SCHEMES[resign.scheme].idHeader ?? resign.custom?.idHeader?.toLowerCase()) : undefined
  const dropped: string[] = []
  const headers: [string, string][] = []
  for (const [name, value] of item.headers) {
    const lower = name.toLowerCase()
    if (HOP.has(lower)) continue
    if (resign && lower !== idHeader && (isSecretHeader(lower, signatureHeaders) || schemeHeaders.has(lower))) continue
    if (value === REDACTED) {
      dropped.push(name)
      continue
    }
    headers.push([name, value])
  }
  const standIn = resign !== undefined && mismatched(item)
  if (resign) {
    const id = idHeader ? headerValue(item.headers, idHeader) : undefined
    const signed = sign(resign.scheme, {
      body: item.body,
      secret: standIn ? freshSecret(resign.scheme) : resign.secret,
      url: options.to,
      timestamp: Math.floor((options.now?.() ?? Date.now()) / 1000),
      ...(id === undefined || id === REDACTED ? {} : { id }),
      ...(resign.custom ? { custom: resign.custom } : {}),
    })
    for (const [name, value] of Object.entries(signed)) {
      const at = headers.findIndex(([n]) => n.toLowerCase() === name)
      if (at >= 0) headers.splice(at, 1)
      headers.push([name, value])
    }
  }
  return { headers, dropped, standIn }
}

export async function replayItems(items: readonly ReplayItem[], options: ReplayOptions): Promise<ReplayResult[]> {
  const timeout = options.timeoutMs ?? 30_000
  const dispatcher = new Agent({ headersTimeout: timeout, bodyTimeout: timeout, connect: { timeout } })
  const results: ReplayResult[] = []
  try {
    for (const item of items) {
      const { headers, dropped, standIn } = prepare(item, options)
      const original = clientView(item.original_outcome)
      try {
        const response = await request(options.to, {
          method: item.method as 'POST',
          headers: headers.flat(),
          body: item.body.length > 0 || item.method !== 'GET' ? Buffer.from(item.body) : null,
          dispatcher, // undici's request never follows redirects: a 3xx is the outcome
        })
        await response.body.dump()
        const outcome = `http_${response.statusCode}`
        results.push({ label: item.label, outcome, status: response.statusCode, original_outcome: original, same: original === null ? null : original === outcome, error: null, dropped_redacted: dropped, signed_with_stand_in: standIn })
      } catch (error) {
        const outcome = classifyNetworkError(error)
        results.push({ label: item.label, outcome, status: null, original_outcome: original, same: original === null ? null : original === outcome, error: (error as Error).message, dropped_redacted: dropped, signed_with_stand_in: standIn })
      }
    }
  } finally {
    await dispatcher.close()
  }
  return results
}
