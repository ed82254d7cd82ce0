// Which clock a timeline row's times are on (docs/time.md), in words, and the rows grouped by
// clock: wall-clock rows and a simulation's rows are never laid on one axis.
import type { RowClock, SimulationView, TimelineRow } from '../../../shared/contract'
import { formatClock, formatDuration, formatHourMinute, formatSincePrecise, formatTime } from '../lib/format'

export const WALL = 'wall'

/** The filter's value for a clock: 'wall', or the simulation's id. */
export function clockKey(clock: RowClock): string {
  return clock.kind === 'wall' ? WALL : clock.simulationId
}

/** The picker's words for a clock: "Live traffic · wall clock", "Try the loop · virtual clock · started 22:09". */
export function clockLabel(key: string, simulations: readonly SimulationView[], fallback?: RowClock): string {
  if (key === WALL) return 'Live traffic · wall clock'
  const simulation = simulations.find((s) => s.id === key)
  if (simulation) return `${simulation.label} · ${clockModeWords(simulation.mode, simulation.scale)} · started ${formatHourMinute(simulation.startedWallAt)}`
  // A simulation the snapshot does not list yet (its rows arrived first): say what the row knows.
  if (fallback?.kind === 'simulated') return `Simulation · ${clockModeWords(fallback.mode)}`
  return 'Simulation'
}

function clockModeWords(mode: 'virtual' | 'scaled', scale?: number): string {
  return mode === 'virtual' ? 'virtual clock' : `scaled clock${scale !== undefined && scale !== 1 ? ` ×${scale}` : ''}`
}

/** Where a clock's axis starts: a simulation reads as time since it started; the wall clock has no origin. */
export function axisOrigin(clock: RowClock): number | undefined {
  return clock.kind === 'simulated' ? clock.startedAt : undefined
}

export interface ClockGroup {
  key: string
  label: string
  clock: RowClock
  rows: TimelineRow[]
}

/**
 * Rows grouped by clock, each group in the rows' own order: live traffic first, then the
 * simulations newest first as the snapshot lists them, then any the snapshot does not know yet.
 */
export function groupByClock(rows: readonly TimelineRow[], simulations: readonly SimulationView[]): ClockGroup[] {
  const groups = new Map<string, ClockGroup>()
  for (const row of rows) {
    const key = clockKey(row.clock)
    let group = groups.get(key)
    if (!group) {
      group = { key, label: clockLabel(key, simulations, row.clock), clock: row.clock, rows: [] }
      groups.set(key, group)
    }
    group.rows.push(row)
  }
  const rank = (key: string) => (key === WALL ? -1 : (() => {
    const i = simulations.findIndex((s) => s.id === key)
    return i === -1 ? simulations.length : i
  })())
  return [...groups.values()].sort((a, b) => rank(a.key) - rank(b.key))
}

/** The clock every row is on, when they share one (null when rows mix clocks or there are none). */
export function sharedClock(rows: readonly TimelineRow[]): string | null {
  let key: string | null = null
  for (const row of rows) {
    const k = clockKey(row.clock)
    if (key === null) key = k
    else if (key !== k) return null
  }
  return key
}

/** A moment on a row's clock for the inspector: the wall date and time, or "+6 m 00 s simulated". */
export function formatMoment(clock: RowClock, at: number): string {
  return clock.kind === 'wall' ? formatTime(at) : `${formatSincePrecise(at - clock.startedAt)} simulated`
}

/** An attempt's time in words, with its wall time beside where the two differ: "+6 m 00 s simulated · sent 22:09:31 wall". */
export function formatBothTimes(clock: RowClock, at: number, wallAt: number | undefined): string {
  const own = formatMoment(clock, at)
  return wallAt !== undefined && wallAt !== at ? `${own} · sent ${formatClock(wallAt)} wall` : own
}

/** A request's moment, with the wall time it arrived beside it when it is simulated: "+14 m 00 s simulated · 13:36:30 wall". */
export function formatMomentWithWall(clock: RowClock, at: number, wallAt: number): string {
  const own = formatMoment(clock, at)
  return clock.kind === 'simulated' ? `${own} · ${formatClock(wallAt)} wall` : own
}

/**
 * A duration on a row's clock. On a virtual clock no time passes while a request is made (the
 * clock jumps between timers), so a 0 there is not a measurement and is not shown as "0 ms".
 */
export function formatDurationOn(clock: RowClock, ms: number | null): string {
  if (ms === null) return '—'
  if (ms === 0 && clock.kind === 'simulated' && clock.mode === 'virtual') return '— (no time passes during a request on the virtual clock)'
  return formatDuration(ms)
}
