// The policy's expected schedule: one bar per attempt at its offset from the first, so "2, 4, 8 …
// 360 min" reads at a glance before anything is sent. Every bar keeps its labels: where bars
// crowd (the first retries of a long schedule), labels move aside along their row with a leader
// line to their bar instead of being dropped.
import { formatDuration } from '../lib/format'
import { spreadLabels } from '../lib/label-layout'

const CHAR = 5.6

export function ScheduleChart({ schedule, timeoutMs }: { schedule: number[]; timeoutMs: number }) {
  if (schedule.length === 0) return <div className="hint">This policy makes one attempt and never retries.</div>
  const width = 1000
  const height = 184
  const left = 36
  const bottom = 38
  const right = width - 8
  const end = Math.max(1, schedule[schedule.length - 1] ?? 1)
  const x = (t: number) => left + (t / end) * (width - left - 40)
  const axisY = height - bottom
  const barsTop = 34
  const names = schedule.map((_, i) => `#${i + 1}`)
  const offsets = schedule.map((t, i) => (i === 0 ? '0' : `+${formatDuration(t)}`))
  const xs = schedule.map(x)
  const nameAt = spreadLabels(xs, names.map((n) => n.length * CHAR + 2), 3, 4, right)
  const offsetAt = spreadLabels(xs, offsets.map((o) => o.length * CHAR), 6, 4, right)
  const nameY = barsTop - 10
  const offsetY = height - 8
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label="expected retry schedule" data-testid="schedule-chart">
      <line className="axis" x1={left} x2={right} y1={axisY} y2={axisY} />
      {schedule.map((_, i) => {
        const h = ((i + 1) / schedule.length) * (axisY - barsTop)
        const cx = xs[i] as number
        const nx = nameAt[i] as number
        const ox = offsetAt[i] as number
        return (
          <g key={i} data-testid="schedule-bar">
            <rect className="bar" x={cx - 3} y={axisY - h} width={6} height={h} rx={2} opacity={0.45 + (0.55 * (i + 1)) / schedule.length} />
            <line className="leader" x1={nx} y1={nameY + 3} x2={cx} y2={axisY - h - 2} />
            <text x={nx} y={nameY} textAnchor="middle" data-testid="schedule-attempt-label">
              {names[i]}
            </text>
            {Math.abs(ox - cx) > 2 && <line className="leader" x1={cx} y1={axisY + 2} x2={ox} y2={offsetY - 10} />}
            <text x={ox} y={offsetY} textAnchor="middle" data-testid="schedule-offset-label">
              {offsets[i]}
            </text>
          </g>
        )
      })}
      <text x={left} y={12}>
        {schedule.length} attempt{schedule.length === 1 ? '' : 's'} over {formatDuration(end)} · timeout {formatDuration(timeoutMs)} each
      </text>
    </svg>
  )
}
