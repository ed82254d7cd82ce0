// What runs and checks draw on rows: a scenario run's verdicts on its own deliveries, and the
// sender check's expected attempt times (ghosts) beside the real marks of the timeline.
import type { ReportDelivery, ScenarioReport } from '../../../shared/scenario'

/** A run's verdict on one of its own deliveries. */
export interface RowVerdict {
  ok: boolean
  /** One line per expectation about this delivery. */
  lines: string[]
}

export interface RowVerdicts {
  /** Event key → expected attempt times (the sender check's ghosts). */
  ghosts: ReadonlyMap<string, number[]>
}

/**
 * Per delivery of the run (its `delivery_id` in the report), the verdicts of the expectations about
 * it (✓ only when all hold). Keyed by the run's own deliveries, never by event id: a run from the UI
 * keeps a store of its own, so a timeline row that shares an event id with one of its deliveries
 * (the live request it was recorded from, another sender's) is not the run's and gets no mark.
 * An expectation names its delivery as the engine finds it: the event to the subscription, the
 * duplicate fault's copy or not, the n-th resend or not.
 */
export function verdictsOf(report: ScenarioReport): Map<number, RowVerdict> {
  const out = new Map<number, RowVerdict>()
  for (const e of report.expectations) {
    const about = e.subject
    if (about.kind !== 'delivery') continue
    const d = report.deliveries.find((d) => isAbout(d, about))
    if (!d) continue
    const v = out.get(d.delivery_id) ?? { ok: true, lines: [] }
    v.ok &&= e.ok
    v.lines.push(`${e.ok ? '✓' : '✗'} ${about.field}${e.ok ? '' : ` — ${e.message}`}`)
    out.set(d.delivery_id, v)
  }
  return out
}

type DeliverySubject = Extract<ScenarioReport['expectations'][number]['subject'], { kind: 'delivery' }>
const isAbout = (d: ReportDelivery, about: DeliverySubject) =>
  d.event === about.event && d.subscription === about.subscription && (d.duplicate_of !== null) === about.copy && (d.resend ?? null) === (about.resend ?? null)
