// Formatting for people: durations ("2 min", "14.5 h"), times, rates.

export function formatDuration(ms: number): string {
  const abs = Math.abs(ms)
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

/** Ticks for an axis spanning ms milliseconds: about `count` round steps. */
export function axisTicks(start: number, end: number, count: number): number[] {
  const span = end - start
  if (span <= 0) return []
  const steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000]
  const step = steps.find((s) => span / s <= count) ?? 86_400_000 * Math.ceil(span / count / 86_400_000)
  const ticks: number[] = []
  for (let t = Math.ceil(start / step) * step; t <= end && ticks.length < 100; t += step) ticks.push(t)
  return ticks
}
