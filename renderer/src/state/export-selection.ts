// The rows Export takes, counted once for every place that shows the number (the toolbar, the
// Export dialog, its toast): the row open in the inspector plus the Ctrl/⌘-clicked ones, among
// the rows loaded under the filters (a picked row the filters hide is not exported, nor counted).
import type { TimelineRow } from '../../../shared/contract'
import { useApp, type AppState } from './app-store'
import type { TimelineModel } from './timeline-model'

export interface ExportSelection {
  /** The keys of the rows taken, in the timeline's order. */
  keys: string[]
  deliveryIds: number[]
  requestIds: number[]
}

export function exportSelection(timeline: Pick<TimelineModel, 'rows' | 'index'>, picked: ReadonlySet<string>, selectedKey: string | null): ExportSelection {
  // Through the key → position index: a few picked rows among many loaded cost a few lookups.
  const taken = new Set(picked)
  if (selectedKey !== null) taken.add(selectedKey)
  const rows = [...taken]
    .map((key) => timeline.index.get(key))
    .filter((at): at is number => at !== undefined)
    .sort((a, b) => a - b)
    .map((at) => timeline.rows[at])
    .filter((row): row is TimelineRow => row !== undefined)
  const deliveryIds: number[] = []
  const requestIds: number[] = []
  for (const row of rows) {
    if (row.kind === 'delivery' && row.deliveryId !== null) deliveryIds.push(row.deliveryId)
    else requestIds.push(...row.marks.filter((m) => m.kind === 'request').map((m) => m.id))
  }
  return { keys: rows.map((row) => row.key), deliveryIds, requestIds }
}

const selectionOf = (s: AppState): ExportSelection => exportSelection(s.timeline, s.picked, s.selection?.rowKey ?? null)

/** How many rows Export takes now (a number, so the toolbar re-renders only when it changes). */
export function useExportCount(): number {
  return useApp((s) => selectionOf(s).keys.length)
}

/** The rows Export takes now, read once when the dialog needs their ids. */
export function currentExportSelection(): ExportSelection {
  return selectionOf(useApp.getState())
}
