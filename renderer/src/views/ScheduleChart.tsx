// The policy's expected schedule: one bar per attempt at its offset from the first, so "2, 4, 8 …
// 360 min" reads at a glance before anything is sent.
import { formatDuration } from '../lib/format'

export function ScheduleChart({ schedule, timeoutMs }: { schedule: number[]; timeoutMs: number }) {
  if (schedule.length === 0) return <div className="hint">This policy makes one attempt and never retries.</div>
  const width = 1000
  const height = 170
  const left = 36
  const bottom = 24
  const end = Math.max(1, schedule[schedule.length - 1] ?? 1)
  const x = (t: number) => left + (t / end) * (width - left - 40)
  // Label a bar only when it stands clear of the last labelled one.
  const labelled = labelClearBars(schedule.map(x), 26)
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label="expected retry schedule" data-testid="schedule-chart">
      <line className="axis" x1={left} x2={width - 8} y1={height - bottom} y2={height - bottom} />
      {schedule.map((t, i) => {
        const h = ((i + 1) / schedule.length) * (height - bottom - 26)
        const cx = x(t)
        return (
          <g key={i}>
            <rect className="bar" x={cx - 3} y={height - bottom - h} width={6} height={h} rx={2} opacity={0.45 + (0.55 * (i + 1)) / schedule.length} />
            {labelled[i] && (
              <text x={cx} y={height - bottom - h - 4} textAnchor="middle">
                #{i + 1}
              </text>
            )}
            {labelled[i] && (
              <text x={cx} y={height - 8} textAnchor="middle">
                {i === 0 ? '0' : `+${formatDuration(t)}`}
              </text>
            )}
          </g>
        )
      })}
      <text x={left} y={12}>
        {schedule.length} attempt{schedule.length === 1 ? '' : 's'} over {formatDuration(end)} · timeout {formatDuration(timeoutMs)} each
      </text>
    </svg>
  )
}

/** Which bars get a label: each one at least minGap from the previous labelled bar. */
function labelClearBars(positions: number[], minGap: number): boolean[] {
  const out: boolean[] = []
  let last = Number.NEGATIVE_INFINITY
  for (const position of positions) {
    const clear = position - last >= minGap
    if (clear) last = position
    out.push(clear)
  }
  return out
}
