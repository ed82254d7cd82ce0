// A row's event id as people know it: the id its consumer saw (a provider's evt_…, the
// X-GitHub-Delivery header …) labels the row, with Hookloop's own id beside it when they differ.
import type { TimelineRow } from '../../../shared/contract'

export interface RowEventIds {
  /** What labels the row and what search finds it by first. */
  shown: string
  /** Hookloop's own id, when it is not the one shown. */
  hookloop: string | null
}

export function rowEventIds(row: Pick<TimelineRow, 'eventId' | 'consumerEventId'>): RowEventIds {
  return row.consumerEventId ? { shown: row.consumerEventId, hookloop: row.eventId } : { shown: row.eventId, hookloop: null }
}

/** The tooltip of a row's id: both ids, named. */
export function rowEventIdTitle(row: Pick<TimelineRow, 'eventId' | 'consumerEventId'>): string {
  const ids = rowEventIds(row)
  return ids.hookloop ? `${ids.shown} (the id your app sees) · Hookloop's id ${ids.hookloop}` : ids.shown
}
