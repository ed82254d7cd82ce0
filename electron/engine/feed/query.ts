// Query parameters of GET /api/v1/events → FeedQuery, or the one parameter that is wrong and why.
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, type FeedParameter, type FeedQuery } from '../../../shared/contract'
import { decodeCursor } from './cursor'

export type FeedQueryResult = { ok: true; query: FeedQuery } | { ok: false; code: 'invalid_parameter' | 'missing_parameter'; parameter: FeedParameter; message: string }

// Full ISO 8601 date-time with an explicit zone: a zone-less time would depend on the server's TZ.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/

/** ms since the epoch, or null when `text` is not an ISO 8601 date-time with a zone. */
export function parseIsoDateTime(text: string): number | null {
  const match = ISO_DATE_TIME.exec(text)
  if (!match) return null
  const [, y, mo, d, h, mi, s] = match
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return null
  const ms = Date.parse(text)
  if (Number.isNaN(ms)) return null
  // Date.parse rolls 2026-02-31 over into March: refuse a day the month does not have.
  const days = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate()
  return Number(d) > days ? null : ms
}

function single(params: URLSearchParams, name: FeedParameter): string | null | { repeated: true } {
  const all = params.getAll(name)
  if (all.length > 1) return { repeated: true }
  return all[0] ?? null
}

export function parseFeedQuery(params: URLSearchParams): FeedQueryResult {
  const bad = (parameter: FeedParameter, message: string): FeedQueryResult => ({ ok: false, code: 'invalid_parameter', parameter, message })
  const since = single(params, 'updated_since')
  const limitText = single(params, 'limit')
  const cursorText = single(params, 'cursor')
  for (const [name, value] of [['updated_since', since], ['limit', limitText], ['cursor', cursorText]] as const) {
    if (value !== null && typeof value === 'object') return bad(name, `${name} was given more than once`)
  }

  let sinceMs: number | null = null
  if (typeof since === 'string') {
    sinceMs = parseIsoDateTime(since)
    if (sinceMs === null) return bad('updated_since', `updated_since must be an ISO 8601 date-time with a zone, e.g. 2026-11-29T12:00:00.000Z; got "${since.slice(0, 80)}"`)
  }

  let limit = FEED_DEFAULT_LIMIT
  if (typeof limitText === 'string') {
    if (!/^\d{1,7}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > FEED_MAX_LIMIT) {
      return bad('limit', `limit must be a whole number from 1 to ${FEED_MAX_LIMIT}; got "${limitText.slice(0, 40)}"`)
    }
    limit = Number(limitText)
  }

  let after: FeedQuery['after'] = null
  if (typeof cursorText === 'string') {
    after = decodeCursor(cursorText)
    if (!after) return bad('cursor', 'cursor is not a next_cursor this feed returned (pass it back unchanged)')
  }

  if (sinceMs === null && after === null) {
    return { ok: false, code: 'missing_parameter', parameter: 'updated_since', message: 'updated_since is required (ISO 8601, e.g. 1970-01-01T00:00:00Z for everything), unless a cursor is given' }
  }
  return { ok: true, query: { since: sinceMs, after, limit } }
}
