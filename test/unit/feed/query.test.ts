import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor, parseFeedQuery, parseIsoDateTime } from '../../../electron/engine/feed'

const parse = (query: string) => parseFeedQuery(new URLSearchParams(query))

describe('feed query parameters', () => {
  it('accepts ISO 8601 with a zone, to the millisecond', () => {
    expect(parseIsoDateTime('2026-11-29T12:00:00.123Z')).toBe(Date.UTC(2026, 10, 29, 12, 0, 0, 123))
    expect(parseIsoDateTime('2026-11-29T13:00:00+01:00')).toBe(Date.UTC(2026, 10, 29, 12))
    expect(parseIsoDateTime('2026-11-29T12:00Z')).toBe(Date.UTC(2026, 10, 29, 12))
  })

  it('refuses what is not an ISO 8601 date-time with a zone', () => {
    for (const text of ['yesterday', '1732881600', '2026-11-29', '2026-11-29T12:00:00', '2026-02-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-29 12:00:00Z']) {
      expect(parseIsoDateTime(text), text).toBeNull()
    }
  })

  it('names the parameter that is wrong', () => {
    expect(parse('updated_since=yesterday')).toMatchObject({ ok: false, code: 'invalid_parameter', parameter: 'updated_since' })
    expect(parse('updated_since=2026-11-29T12:00:00Z&limit=0')).toMatchObject({ ok: false, parameter: 'limit', message: expect.stringContaining('1 to 1000') })
    expect(parse('updated_since=2026-11-29T12:00:00Z&limit=1001')).toMatchObject({ ok: false, parameter: 'limit' })
    expect(parse('updated_since=2026-11-29T12:00:00Z&limit=ten')).toMatchObject({ ok: false, parameter: 'limit' })
    expect(parse('updated_since=2026-11-29T12:00:00Z&limit=2.5')).toMatchObject({ ok: false, parameter: 'limit' })
    expect(parse('cursor=not-ours')).toMatchObject({ ok: false, parameter: 'cursor' })
    expect(parse('updated_since=2026-11-29T12:00:00Z&updated_since=2026-11-29T13:00:00Z')).toMatchObject({ ok: false, parameter: 'updated_since', message: expect.stringContaining('more than once') })
    expect(parse('')).toMatchObject({ ok: false, code: 'missing_parameter', parameter: 'updated_since' })
  })

  it('takes a cursor alone, and round-trips it', () => {
    const cursor = encodeCursor({ seq: 42, event_id: 'e-1' })
    expect(decodeCursor(cursor)).toEqual({ seq: 42, event_id: 'e-1' })
    expect(parse(`cursor=${cursor}&limit=5`)).toEqual({ ok: true, query: { since: null, after: { seq: 42, event_id: 'e-1' }, limit: 5 } })
    // A cursor from before the feed was ordered by sequence still reads: after that event.
    expect(decodeCursor(Buffer.from('[1,1700000000000,"e-1"]').toString('base64url'))).toEqual({ created_at: 1_700_000_000_000, event_id: 'e-1' })
    // A well-formed base64url token that is not ours.
    expect(decodeCursor(Buffer.from('[3,1,"x"]').toString('base64url'))).toBeNull()
    expect(decodeCursor(Buffer.from('{"a":1}').toString('base64url'))).toBeNull()
  })
})
