// The last activity this window knows of each row it was sent: its arrivals, attempts and status.
// A row can be sent again for what is not activity (a schema verdict judged after the answer, a
// signature checked, a forward leg ended); hidden by the view then, it is no arrival to count.
import type { TimelineRow } from '../../../shared/contract'

/** Rows remembered at most; past this the ones seen longest ago are forgotten (then counted if sent again hidden). */
const MAX_REMEMBERED = 50_000

const stamps = new Map<string, string>()

/** What counts as activity on a row: a new arrival or attempt, a duplicate, a status it moved to. */
export function activityStamp(row: TimelineRow): string {
  return `${row.status}|${row.attempts}|${row.duplicates}|${row.marks.length}`
}

/** Whether this window already knew the row with the activity it has now. */
export function seenBefore(row: TimelineRow): boolean {
  return stamps.get(row.key) === activityStamp(row)
}

/** Remembers the rows' activity (read in a page, or sent as they changed). */
export function noteSeen(rows: readonly TimelineRow[]): void {
  for (const row of rows) {
    stamps.delete(row.key) // to the end of the map's order: the most recently seen
    stamps.set(row.key, activityStamp(row))
  }
  for (const key of stamps.keys()) {
    if (stamps.size <= MAX_REMEMBERED) break
    stamps.delete(key)
  }
}
