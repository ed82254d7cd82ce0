// Live traffic is never hidden without a word: rows that arrive while the view's filter (a
// simulation's clock, a status, a search) hides them are counted, placed by clock, named by what
// hides them, and one filter shows them.
import { describe, expect, it } from 'vitest'
import type { SimulationView, TimelineRow } from '../../../../shared/contract'
import { applyBatch, filterView, hiddenNotice, latestArrival, MAX_HIDDEN_ARRIVALS, noteArrivals, revealingFilter, stillHidden, useApp } from '../../../../renderer/src/state'
import { emptyTimeline } from '../../../../renderer/src/state/timeline-model'
import { timelineRow } from './support'

const LOOP: SimulationView = { id: 'sim-loop', label: 'Try the loop', mode: 'virtual', startedAt: 1_000, startedWallAt: Date.UTC(2026, 11, 4, 13, 30) } as SimulationView
const onLoop = { kind: 'simulated', simulationId: 'sim-loop', mode: 'virtual', startedAt: 1_000 } as const
const live = (key: string, patch: Partial<TimelineRow> = {}) => timelineRow(key, 5_000, { kind: 'received', status: 'received', ...patch })

describe('hidden arrivals', () => {
  it('keeps the rows the filter hides and lets go of those it shows', () => {
    const filter = filterView({ clock: 'sim-loop' })
    const hidden = noteArrivals(new Map(), [live('r1'), live('r2'), timelineRow('d1', 2_000, { clock: onLoop })], filter)
    expect([...hidden.keys()]).toEqual(['r1', 'r2'])
    // Nothing new hidden: the same map (no re-render for nothing).
    expect(noteArrivals(hidden, [timelineRow('d1', 2_000, { clock: onLoop })], filter)).toBe(hidden)
    // Once a row matches the view it is on screen, not hidden.
    expect([...noteArrivals(hidden, [live('r1', { clock: onLoop })], filter).keys()]).toEqual(['r2'])
    // Picking the clock they are on shows them: nothing stays hidden.
    expect(stillHidden(hidden, { clock: 'wall' }).size).toBe(0)
    expect(stillHidden(hidden, { clock: 'sim-loop' })).toBe(hidden)
  })

  it('says how many, on which clock and hidden by what', () => {
    const filter = filterView({ clock: 'sim-loop', status: ['failed' as const] })
    const hidden = noteArrivals(new Map(), [live('r1'), live('r2'), live('r3'), timelineRow('d9', 3_000, { clock: onLoop, status: 'succeeded' })], filter)
    const notice = hiddenNotice(hidden, filter, [LOOP])
    expect(notice).toEqual({
      count: 4,
      full: false,
      places: [
        { clock: 'wall', label: 'Live traffic · wall clock', count: 3 },
        { clock: 'sim-loop', label: expect.stringMatching(/^Try the loop · virtual clock · started \d\d:\d\d$/), count: 1 },
      ],
      hiddenBy: ['the clock picked', 'the status filter'],
    })
    expect(hiddenNotice(new Map(), filter, [LOOP])).toBeNull()
  })

  it('one filter shows them: the clock turns to theirs when they share one, what else hides them is let go', () => {
    const hidden = noteArrivals(new Map(), [live('r1'), live('r2', { eventId: 'evt-other' })], filterView({ clock: 'sim-loop', search: 'evt-r', eventType: 'booking.created' }))
    expect(revealingFilter(hidden, { clock: 'sim-loop', search: 'evt-r', eventType: 'booking.created' })).toEqual({ clock: 'wall', eventType: 'booking.created' })
    // On two clocks: every clock, grouped.
    const two = noteArrivals(hidden, [timelineRow('d2', 2_000, { clock: { kind: 'simulated', simulationId: 'sim-2', mode: 'virtual', startedAt: 0 } })], filterView({ clock: 'sim-loop' }))
    expect(revealingFilter(two, { clock: 'sim-loop' })).toEqual({})
    // The one shown first: on the clock of the last to arrive, the latest there (times of two clocks are never compared).
    expect(latestArrival(two)?.key).toBe('d2')
    const wall = noteArrivals(new Map(), [live('r1', { lastAt: 9_000 }), live('r2', { lastAt: 7_000 }), live('r1', { lastAt: 9_000, attempts: 2 })], filterView({ clock: 'sim-loop' }))
    expect([...wall.keys()]).toEqual(['r1', 'r2'])
    expect(latestArrival(wall)?.key).toBe('r1')
  })

  it('with Live off, rows that arrive past the window shown on their clock are counted; Live on again shows them', () => {
    const zoomed = { filter: {}, window: { start: 0, end: 4_000 }, axisClock: 'wall', relative: false }
    const hidden = noteArrivals(new Map(), [live('late'), live('inside', { firstAt: 1_000, marks: [{ ...live('x').marks[0]!, at: 1_000 }] }), timelineRow('d1', 9_000, { clock: onLoop })], zoomed)
    // The row on another clock shows in a group of its own: the window is not its axis.
    expect([...hidden.keys()]).toEqual(['late'])
    expect(hiddenNotice(hidden, zoomed, [])).toMatchObject({ count: 1, hiddenBy: ['the time window shown (Live is off)'] })
    expect(hiddenNotice(hidden, { ...zoomed, window: null }, [])).toBeNull()
    // The click's filter keeps every filter part: Live on is what shows them.
    expect(revealingFilter(hidden, {})).toEqual({})
  })

  it('stops growing under a flood and says the count is a floor', () => {
    const flood = Array.from({ length: MAX_HIDDEN_ARRIVALS + 5 }, (_, i) => live(`r${i}`))
    const hidden = noteArrivals(new Map(), flood, filterView({ clock: 'sim-loop' }))
    expect(hidden.size).toBe(MAX_HIDDEN_ARRIVALS)
    expect(hiddenNotice(hidden, filterView({ clock: 'sim-loop' }), [])?.full).toBe(true)
  })

  it('counts live rows pushed while a simulation is looked at (the window’s state, through applyBatch)', () => {
    useApp.setState({ snapshot: null, filter: { clock: 'sim-loop' }, timeline: emptyTimeline, hiddenArrivals: new Map() })
    applyBatch([{ name: 'timeline.upsert', payload: { rows: [live('r1'), live('r2'), timelineRow('d1', 2_000, { clock: onLoop })] } }])
    expect(useApp.getState().timeline.rows.map((r) => r.key)).toEqual(['d1'])
    expect([...useApp.getState().hiddenArrivals.keys()]).toEqual(['r1', 'r2'])
  })

  it('does not count a row seen before when it comes again with no new activity (a schema verdict judged late), and counts it when it has some', () => {
    useApp.setState({ snapshot: null, filter: {}, timeline: emptyTimeline, hiddenArrivals: new Map() })
    applyBatch([{ name: 'timeline.upsert', payload: { rows: [live('seen')] } }])
    expect(useApp.getState().timeline.rows.map((r) => r.key)).toEqual(['seen'])
    // The person picks the simulation's clock; the row's verdict arrives after.
    useApp.setState({ filter: { clock: 'sim-loop' }, timeline: emptyTimeline })
    applyBatch([{ name: 'timeline.upsert', payload: { rows: [live('seen', { schema: { verdict: 'valid' } })] } }])
    expect(useApp.getState().hiddenArrivals.size).toBe(0)
    // A second arrival of the same key (a duplicate) is new activity: counted.
    applyBatch([{ name: 'timeline.upsert', payload: { rows: [live('seen', { duplicates: 1 })] } }])
    expect([...useApp.getState().hiddenArrivals.keys()]).toEqual(['seen'])
  })
})
