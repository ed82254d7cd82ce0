// What runs and checks draw on the timeline's rows: the last scenario run's verdicts, and the
// sender check's expected attempt times (ghosts) beside the real marks.
import type { ScenarioReport } from '../../../shared/scenario'

/** A verdict drawn on the timeline rows a scenario's expectations are about (by event id). */
export interface RowVerdict {
  ok: boolean
  /** One line per expectation about this row. */
  lines: string[]
}

export interface RowVerdicts {
  /** Event id → the last scenario run's verdict on it. */
  verdicts: ReadonlyMap<string, RowVerdict>
  /** Event key → expected attempt times (the sender check's ghosts). */
  ghosts: ReadonlyMap<string, number[]>
}

/** Per event id, the verdicts of the expectations about its deliveries (✓ only when all hold). */
export function verdictsOf(report: ScenarioReport): Map<string, RowVerdict> {
  const out = new Map<string, RowVerdict>()
  for (const e of report.expectations) {
    const about = e.subject
    if (about.kind !== 'delivery') continue
    // The report's deliveries of that scenario event to that subscription carry the event ids.
    for (const d of report.deliveries) {
      if (d.event !== about.event || d.subscription !== about.subscription) continue
      const v = out.get(d.event_id) ?? { ok: true, lines: [] }
      v.ok &&= e.ok
      v.lines.push(`${e.ok ? '✓' : '✗'} ${about.field}${e.ok ? '' : ` — ${e.message}`}`)
      out.set(d.event_id, v)
    }
  }
  return out
}
