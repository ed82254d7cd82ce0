// Formatting for people: durations ("2 min", "14.5 h"), times, rates.
import { formatRunOffset } from '../../../shared/clock'

export function formatDuration(ms: number): string {
  const abs = Math.abs(ms)
  // A duration under a millisecond is not "0 ms": the store holds more than nothing.
  if (abs > 0 && abs < 1) return '< 1 ms'
  if (abs < 1000) return `${Math.round(ms)} ms`
  if (abs < 60_000) return `${trim(ms / 1000)} s`
  if (abs < 3_600_000) return `${trim(ms / 60_000)} min`
  if (abs < 86_400_000) return `${trim(ms / 3_600_000)} h`
  return `${trim(ms / 86_400_000)} d`
}

function trim(value: number): string {
  return value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10)
}

export function formatTime(ms: number | null): string {
  if (ms === null) return '—'
  const d = new Date(ms)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** HH:MM:SS, with milliseconds when ticks are closer than a second. */
export function formatClock(ms: number, withMs = false): string {
  const d = new Date(ms)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  const base = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  return withMs ? `${base}.${pad(d.getMilliseconds(), 3)}` : base
}

export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(ratio > 0 && ratio < 0.1 ? 1 : 0)} %`
}

const DAY = 86_400_000
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

function dayName(d: Date): string {
  return `${MONTHS[d.getMonth()]} ${d.getDate()}`
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()
}

/**
 * Labels of wall-clock axis ticks. Within one day a tick reads its time only; once the ticks
 * cross midnight the first tick and every tick on a new day name the day too ("Dec 2 00:00"),
 * and ticks a day or more apart read the day alone — else ticks a day apart all read 00:00:00.
 */
export function wallTickLabels(ticks: readonly number[]): string[] {
  if (ticks.length === 0) return []
  const step = ticks.length > 1 ? (ticks[1] as number) - (ticks[0] as number) : 0
  const dates = ticks.map((t) => new Date(t))
  const first = dates[0] as Date
  const last = dates[dates.length - 1] as Date
  const manyDays = !sameDay(first, last)
  const manyYears = first.getFullYear() !== last.getFullYear()
  const pad = (n: number) => String(n).padStart(2, '0')
  return dates.map((d, i) => {
    // Across a new year the first tick and each tick in a new year carry the year too.
    const newYear = manyYears && (i === 0 || (dates[i - 1] as Date).getFullYear() !== d.getFullYear())
    if (step >= DAY) return newYear ? `${dayName(d)} ${d.getFullYear()}` : dayName(d)
    const time = step >= 60_000 ? `${pad(d.getHours())}:${pad(d.getMinutes())}` : formatClock(d.getTime(), step > 0 && step < 1000)
    if (!manyDays) return time
    const newDay = i === 0 || !sameDay(dates[i - 1] as Date, d)
    return newDay ? `${dayName(d)}${newYear ? ` ${d.getFullYear()}` : ''} ${time}` : time
  })
}

/** Time since a simulation started, for its own axis: "+0 s", "+2 m", "+14 m", "+1 h 30 m", "+3 d 2 h". */
export function formatSince(ms: number): string {
  const sign = ms < 0 ? '−' : '+'
  const abs = Math.abs(Math.round(ms))
  if (abs < 1000) return abs === 0 ? '+0 s' : `${sign}${abs} ms`
  const d = Math.floor(abs / DAY)
  const h = Math.floor((abs % DAY) / 3_600_000)
  const m = Math.floor((abs % 3_600_000) / 60_000)
  const s = Math.floor((abs % 60_000) / 1000)
  const parts: string[] = []
  if (d > 0) parts.push(`${d} d`)
  if (h > 0 && parts.length < 2) parts.push(`${h} h`)
  if (m > 0 && parts.length < 2 && d === 0) parts.push(`${m} m`)
  if (s > 0 && parts.length < 2 && d === 0 && h === 0) parts.push(`${s} s`)
  return `${sign}${parts.join(' ') || '0 s'}`
}

/** One moment of a simulation for the inspector: "+6 m 00 s" (precise to the second); the CLI and MCP use the same words. */
export const formatSincePrecise = formatRunOffset

/** HH:MM of a wall time, for "started 22:09". */
export function formatHourMinute(ms: number): string {
  const d = new Date(ms)
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
}

/**
 * Ticks for an axis from start to end: about `count` round steps, counted from `origin` (a
 * simulation's start, so its ticks read +2 m rather than +1 m 37 s). Without an origin, steps of
 * a day or more fall on local midnight.
 */
export function axisTicks(start: number, end: number, count: number, origin?: number): number[] {
  const span = end - start
  if (span <= 0) return []
  const steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000, DAY]
  const step = steps.find((s) => span / s <= count) ?? DAY * Math.ceil(span / count / DAY)
  const zero = origin ?? (step >= DAY ? new Date(new Date(start).toDateString()).getTime() : 0)
  const ticks: number[] = []
  for (let t = zero + Math.ceil((start - zero) / step) * step; t <= end && ticks.length < 100; t += step) ticks.push(t)
  return ticks
}
