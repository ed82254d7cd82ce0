import { describe, expect, it } from 'vitest'
import type { RowClock, SimulationView, TimelineRow } from '../../../../shared/contract'
import { clockKey, clockLabel, formatBothTimes, formatDurationOn, groupByClock, sharedClock } from '../../../../renderer/src/state/clock-groups'
import { applyUpserts, emptyTimeline, matchesFilter } from '../../../../renderer/src/state/timeline-model'
import { COLUMNS } from '../../../../renderer/src/lib/table-columns'
import { timelineRow } from './support'

const started = new Date(2026, 11, 1, 22, 9, 0).getTime()
const loop: SimulationView = { id: 'sim-loop', mode: 'virtual', scale: 1, startedAt: started + 3 * 86_400_000, startedWallAt: started, label: 'Try the loop' }
const scaled: SimulationView = { id: 'sim-scaled', mode: 'scaled', scale: 60, startedAt: started - 60_000, startedWallAt: started - 60_000, label: 'sender session' }
const simulated = (s: SimulationView): RowClock => ({ kind: 'simulated', simulationId: s.id, mode: s.mode, startedAt: s.startedAt })

function row(key: string, firstAt: number, clock: RowClock): TimelineRow {
  const marks: TimelineRow['marks'] = [{ kind: 'attempt', id: 1, n: 1, at: firstAt, durationMs: 5, tone: 'retrying', label: '503', nextAt: null }]
  return timelineRow(key, firstAt, { eventType: 'order.paid', nextAt: null, marks, clock })
}

describe('clocks on the timeline', () => {
  const wallRow = row('w', started + 5000, { kind: 'wall' })
  const loopRow = row('l', loop.startedAt + 120_000, simulated(loop))
  const scaledRow = row('s', scaled.startedAt + 10_000, simulated(scaled))

  it('names each clock: live traffic on the wall clock, a simulation by what it is, its clock and when it started', () => {
    expect(clockLabel('wall', [loop])).toBe('Live traffic · wall clock')
    expect(clockLabel(loop.id, [loop])).toBe('Try the loop · virtual clock · started 22:09')
    expect(clockLabel(scaled.id, [scaled])).toBe('sender session · scaled clock ×60 · started 22:08')
    expect(clockLabel('sim-unknown', [], simulated({ ...loop, id: 'sim-unknown' }))).toBe('Simulation · virtual clock')
  })

  it('the filter\'s clock keeps only that clock\'s rows', () => {
    expect(matchesFilter(wallRow, { clock: 'wall' })).toBe(true)
    expect(matchesFilter(loopRow, { clock: 'wall' })).toBe(false)
    expect(matchesFilter(loopRow, { clock: loop.id })).toBe(true)
    expect(matchesFilter(scaledRow, { clock: loop.id })).toBe(false)
    expect(matchesFilter(loopRow, {})).toBe(true)
    const model = applyUpserts(emptyTimeline, [wallRow, loopRow, scaledRow], { clock: loop.id })
    expect(model.rows.map((r) => r.key)).toEqual(['l'])
  })

  it('with every clock shown, rows group by clock (live traffic first, then simulations newest first), never mixed', () => {
    // The loop's virtual time is three days ahead of the wall clock: sorted by time alone it would come first, mixed in.
    const groups = groupByClock([loopRow, wallRow, scaledRow], [loop, scaled])
    expect(groups.map((g) => g.key)).toEqual(['wall', loop.id, scaled.id])
    expect(groups.map((g) => g.rows.map((r) => r.key))).toEqual([['w'], ['l'], ['s']])
    for (const g of groups) for (const r of g.rows) expect(clockKey(r.clock)).toBe(g.key)
  })

  it('knows when rows share one clock, so a link can pick it', () => {
    expect(sharedClock([loopRow, row('l2', loop.startedAt, simulated(loop))])).toBe(loop.id)
    expect(sharedClock([loopRow, wallRow])).toBeNull()
    expect(sharedClock([])).toBeNull()
  })

  it('an attempt shows both times where they differ: its simulated moment and when it was sent on the wall clock', () => {
    const wallAt = new Date(2026, 11, 1, 22, 9, 31).getTime()
    expect(formatBothTimes(simulated(loop), loop.startedAt + 6 * 60_000, wallAt)).toBe('+6 m 00 s simulated · sent 22:09:31 wall')
    expect(formatBothTimes({ kind: 'wall' }, wallAt, undefined)).toBe('2026-12-01 22:09:31')
  })
})

describe('durations on a row\'s clock', () => {
  it('a virtual clock\'s 0 is no measurement: never shown as "0 ms"; a real 0 or a measured one is', () => {
    expect(formatDurationOn(simulated(loop), 0)).not.toMatch(/0 ms/)
    expect(formatDurationOn(simulated(loop), 12)).toBe('12 ms')
    expect(formatDurationOn(simulated(scaled), 0)).toBe('0 ms')
    expect(formatDurationOn({ kind: 'wall' }, 0)).toBe('0 ms')
    expect(formatDurationOn({ kind: 'wall' }, null)).toBe('—')
  })
})

describe('table headers', () => {
  it('are words, not the fields\' snake_case', () => {
    expect(COLUMNS.map((c) => c.words)).toEqual(['Event id', 'Event type', 'Status', 'Attempts', 'Status code', 'Last attempt', 'Next attempt'])
    for (const c of COLUMNS) expect(c.words).not.toMatch(/_/)
  })
})
