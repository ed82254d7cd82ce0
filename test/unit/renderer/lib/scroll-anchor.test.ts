// A scrolled list while rows arrive above it, on the real timeline model: the row being read is
// found where it went, the rows that came above it are named once, and those scrolled back up to
// leave the count.
import { describe, expect, it } from 'vitest'
import { keysOf, shiftUnder, stillAbove, type ListKeys } from '../../../../renderer/src/lib/scroll-anchor'
import { appendPage, applyUpserts, emptyTimeline, type TimelineModel } from '../../../../renderer/src/state/timeline-model'
import { timelineRow as row } from '../state/support'

const listOf = (model: TimelineModel): ListKeys => keysOf(model.rows, model.index, model.read)

/** Rows r1 … rN, r1 oldest: newest first on the list, rN at the top. */
function model(n: number): TimelineModel {
  return applyUpserts(emptyTimeline, Array.from({ length: n }, (_, i) => row(`r${i + 1}`, (i + 1) * 100)), {})
}

describe('scroll anchor', () => {
  it('follows the row being read down the list by the rows that arrived above it, newest first', () => {
    const before = model(30)
    // Reading r20 (index 10), 12 px into it.
    const anchor = { key: 'r20', offset: 12 }
    expect(before.index.get('r20')).toBe(10)
    const after = applyUpserts(before, [row('r31', 3100), row('r32', 3200), row('r33', 3300)], {})
    expect(shiftUnder(listOf(before), listOf(after), anchor)).toEqual({ index: 13, arrived: ['r33', 'r32', 'r31'] })
  })

  it('names nothing when the row being read kept its place: rows replaced in place, a page added at the end', () => {
    const before = model(30)
    const anchor = { key: 'r20', offset: 0 }
    const replaced = applyUpserts(before, [row('r25', 2500, { status: 'succeeded' })], {})
    expect(shiftUnder(listOf(before), listOf(replaced), anchor)).toBeNull()
    const paged = appendPage(before, [row('r0', 0)], 31)
    expect(shiftUnder(listOf(before), listOf(paged), anchor)).toBeNull()
  })

  it('counts a row once, and only rows: a row that was already above is not new, a group header is not a row', () => {
    const before = model(10)
    const anchor = { key: 'r5', offset: 0 }
    // An older row below the anchor (arrives at the end) does not move it; a new one above does.
    const after = applyUpserts(before, [row('r11', 1100), row('r0', 50)], {})
    expect(shiftUnder(listOf(before), listOf(after), anchor)).toEqual({ index: 6, arrived: ['r11'] })
    const headers: ListKeys = { ...listOf(after), isRow: (i) => i !== 0 }
    expect(shiftUnder(listOf(before), headers, anchor)?.arrived).toEqual([])
  })

  it('keeps the arrivals still above the top row; those scrolled up to, or gone from the list, leave', () => {
    const list = listOf(model(30)) // r30 at 0 … r1 at 29
    const arrived = new Set(['r30', 'r29', 'r28'])
    expect(stillAbove(arrived, list, 5)).toBe(arrived)
    expect([...stillAbove(arrived, list, 2)]).toEqual(['r30', 'r29'])
    expect(stillAbove(arrived, list, 0).size).toBe(0)
    expect([...stillAbove(new Set(['r30', 'gone']), list, 5)]).toEqual(['r30'])
  })

  it('a list read again is another read: the model carries which one, upserts and pages keep it', () => {
    const first = { ...emptyTimeline, read: 4 }
    const paged = appendPage(first, [row('a', 100)], 2)
    expect(paged.read).toBe(4)
    expect(applyUpserts(paged, [row('b', 200)], {}).read).toBe(4)
  })
})
