import { describe, expect, it } from 'vitest'
import { axisTicks, formatDuration, formatSince, formatSincePrecise, wallTickLabels } from '../../../../renderer/src/lib/format'

const DAY = 86_400_000
// Local times, so the labels read the same in any time zone the tests run in.
const at = (day: number, hours: number, minutes = 0) => new Date(2026, 11, day, hours, minutes).getTime()

describe('wall clock axis', () => {
  it('names the day on ticks a day apart instead of reading 00:00:00 on each', () => {
    const ticks = axisTicks(at(1, 12), at(5, 12), 4)
    expect(ticks).toEqual([at(2, 0), at(3, 0), at(4, 0), at(5, 0)])
    expect(wallTickLabels(ticks)).toEqual(['Dec 2', 'Dec 3', 'Dec 4', 'Dec 5'])
  })

  it('names the day on the first tick and each tick past midnight once the span crosses a day', () => {
    const ticks = axisTicks(at(1, 17), at(2, 11), 4)
    const labels = wallTickLabels(ticks)
    expect(ticks).toEqual([at(1, 18), at(2, 0), at(2, 6)])
    expect(labels).toEqual(['Dec 1 18:00', 'Dec 2 00:00', '06:00'])
    expect(new Set(labels).size).toBe(labels.length)
  })

  it('reads the time only within one day, with seconds where ticks are seconds apart', () => {
    expect(wallTickLabels([at(1, 9, 0), at(1, 9, 30), at(1, 10, 0)])).toEqual(['09:00', '09:30', '10:00'])
    const base = at(1, 9)
    expect(wallTickLabels([base, base + 5000, base + 10_000])).toEqual(['09:00:00', '09:00:05', '09:00:10'])
  })

  it('names the year too once the ticks cross into a new one', () => {
    const ticks = [new Date(2026, 11, 20).getTime(), new Date(2026, 11, 30).getTime(), new Date(2027, 0, 9).getTime(), new Date(2027, 0, 19).getTime()]
    expect(wallTickLabels(ticks)).toEqual(['Dec 20 2026', 'Dec 30', 'Jan 9 2027', 'Jan 19'])
    expect(wallTickLabels([new Date(2026, 11, 31, 18).getTime(), new Date(2027, 0, 1, 0).getTime()])).toEqual(['Dec 31 2026 18:00', 'Jan 1 2027 00:00'])
  })

  it('steps of a day or more fall on local midnight', () => {
    for (const t of axisTicks(at(1, 3), at(20, 3), 5)) expect(new Date(t).getHours()).toBe(0)
  })
})

describe('simulation axis', () => {
  it('counts ticks from the simulation start, so they read +0 s, +2 m, +4 m', () => {
    const startedAt = 1_700_000_012_345
    const ticks = axisTicks(startedAt - 30_000, startedAt + 5 * 60_000, 3, startedAt)
    expect(ticks.map((t) => formatSince(t - startedAt))).toEqual(['+0 s', '+2 m', '+4 m'])
  })

  it('reads time since the start in words', () => {
    expect(formatSince(0)).toBe('+0 s')
    expect(formatSince(14 * 60_000)).toBe('+14 m')
    expect(formatSince(90 * 60_000)).toBe('+1 h 30 m')
    expect(formatSince(3 * DAY + 2 * 3_600_000)).toBe('+3 d 2 h')
    expect(formatSincePrecise(6 * 60_000)).toBe('+6 m 00 s')
    expect(formatSincePrecise(3_600_000 + 5000)).toBe('+1 h 00 m 05 s')
  })
})

describe('durations', () => {
  it('never shows "0 ms" for a duration the store holds as more than nothing', () => {
    expect(formatDuration(0.4)).toBe('< 1 ms')
    expect(formatDuration(0)).toBe('0 ms')
    expect(formatDuration(12)).toBe('12 ms')
  })
})
