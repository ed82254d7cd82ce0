import { describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../../shared/contract'
import { appendPage, applyUpserts, emptyTimeline, matchesFilter, timeExtent } from '../../../../renderer/src/state/timeline-model'
import { timelineRow as row } from './support'

function keys(model: { rows: TimelineRow[] }): string[] {
  return model.rows.map((r) => r.key)
}

function indexConsistent(model: { rows: TimelineRow[]; index: Map<string, number> }): boolean {
  return model.rows.every((r, i) => model.index.get(r.key) === i) && model.index.size === model.rows.length
}

describe('timeline model', () => {
  it('keeps rows newest first as upserts arrive, with the index in step', () => {
    let model = applyUpserts(emptyTimeline, [row('a', 100), row('c', 300), row('b', 200)], {})
    expect(keys(model)).toEqual(['c', 'b', 'a'])
    expect(model.total).toBe(3)
    model = applyUpserts(model, [row('d', 250)], {})
    expect(keys(model)).toEqual(['c', 'd', 'b', 'a'])
    expect(indexConsistent(model)).toBe(true)
  })

  it('replaces a row in place when it changes, without counting it twice', () => {
    let model = applyUpserts(emptyTimeline, [row('a', 100), row('b', 200)], {})
    model = applyUpserts(model, [row('a', 100, { status: 'succeeded', attempts: 4 })], {})
    expect(keys(model)).toEqual(['b', 'a'])
    expect(model.rows[1]?.status).toBe('succeeded')
    expect(model.total).toBe(2)
  })

  it('drops a row that stops matching the filter and ignores new rows that do not match', () => {
    const filter = { status: ['retrying' as const] }
    let model = applyUpserts(emptyTimeline, [row('a', 100), row('b', 200)], filter)
    model = applyUpserts(model, [row('a', 100, { status: 'succeeded' }), row('c', 300, { status: 'failed' })], filter)
    expect(keys(model)).toEqual(['b'])
    expect(model.total).toBe(1)
    expect(indexConsistent(model)).toBe(true)
  })

  it('leaves rows older than the loaded page to later pages', () => {
    let model = appendPage(emptyTimeline, [row('z', 900), row('y', 800)], 10)
    model = applyUpserts(model, [row('old', 5)], {})
    expect(keys(model)).toEqual(['z', 'y'])
    expect(model.total).toBe(11)
    model = applyUpserts(model, [row('new', 1000)], {})
    expect(keys(model)).toEqual(['new', 'z', 'y'])
  })

  it('matches filters by status, subscription, endpoint, type and event id', () => {
    const r = row('a', 1, { eventId: '5b0a8677-7ccd', endpointId: 'ep' })
    expect(matchesFilter(r, { search: '5B0A' })).toBe(true)
    expect(matchesFilter(r, { search: '7ccd' })).toBe(false)
    expect(matchesFilter(r, { search: 'nope' })).toBe(false)
    expect(matchesFilter(r, { subscriptionId: 'sub-2' })).toBe(false)
    expect(matchesFilter(r, { endpointId: 'ep', eventType: 'booking.created', status: ['retrying'] })).toBe(true)
  })

  it("matches a delivery by the id its consumer saw as well as Hookloop's", () => {
    const r = row('a', 1, { eventId: '5b0a8677-7ccd', consumerEventId: 'evt_1QxZ' })
    expect(matchesFilter(r, { search: 'EVT_1q' })).toBe(true)
    expect(matchesFilter(r, { search: '5b0a' })).toBe(true)
    expect(matchesFilter(r, { search: 'evt_2' })).toBe(false)
  })

  it('fits the time window around marks and scheduled retries, absolute or aligned', () => {
    const rows = [row('a', 1_000_000), row('b', 2_000_000)]
    const absolute = timeExtent(rows, false)
    expect(absolute!.start).toBeLessThan(1_000_000)
    expect(absolute!.end).toBeGreaterThan(2_120_000)
    const aligned = timeExtent(rows, true)
    expect(aligned!.start).toBeLessThan(0)
    expect(aligned!.end).toBeGreaterThan(120_000)
    expect(aligned!.end).toBeLessThan(200_000)
    expect(timeExtent([], false)).toBeNull()
  })
})

describe('timeline model, several changes in one batch', () => {
  it('a new row and a moved row in one batch: every row once, the index in step', () => {
    // b-1 enters at the top (shifting b-0 down), then b-0 moves: its position must not be read stale.
    let model = applyUpserts(emptyTimeline, [row('a-0', 100), row('b-0', 200)], {})
    model = applyUpserts(model, [row('b-1', 300), row('b-0', 250)], {})
    expect(keys(model)).toEqual(['b-1', 'b-0', 'a-0'])
    expect(indexConsistent(model)).toBe(true)
    model = applyUpserts(model, [row('c', 400), row('a-0', 100, { status: 'succeeded' }), row('b-1', 50), row('c', 400, { attempts: 2 })], {})
    expect(keys(model)).toEqual(['c', 'b-0', 'a-0', 'b-1'])
    expect(model.rows[0]?.attempts).toBe(2)
    expect(model.rows[2]?.status).toBe('succeeded')
    expect(model.total).toBe(4)
    expect(indexConsistent(model)).toBe(true)
  })
})
