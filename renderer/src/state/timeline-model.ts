// Pure logic of the timeline list: rows kept newest first with an id → index map, updated
// incrementally as batches of upserts arrive (no re-sort of the whole list per event).
import type { TimelineFilter, TimelineRow } from '../../../shared/contract'
import { clockKey } from './clock-groups'

export interface TimelineModel {
  rows: TimelineRow[]
  index: Map<string, number>
  /** Rows on the engine's side matching the filter (the list may hold fewer: it loads by page). */
  total: number
  /**
   * Which read of the engine's timeline the rows come from: a new one after a filter change or a
   * reset, kept by upserts and later pages. A list read again holds rows that did not arrive, so
   * the list's scroll neither keeps its place by them nor counts them as new (views/use-virtual.ts).
   */
  read: number
}

export const emptyTimeline: TimelineModel = { rows: [], index: new Map(), total: 0, read: 0 }

/** Newest first; the key breaks ties so the order is stable. */
export function compareRows(a: TimelineRow, b: TimelineRow): number {
  if (a.firstAt !== b.firstAt) return b.firstAt - a.firstAt
  return a.key < b.key ? 1 : a.key > b.key ? -1 : 0
}

function searchFinds(row: TimelineRow, text: string): boolean {
  if (row.kind === 'received' && row.eventId.startsWith('request #')) return false
  return row.eventId.toLowerCase().startsWith(text) || (row.consumerEventId?.toLowerCase().startsWith(text) ?? false)
}

export function matchesFilter(row: TimelineRow, filter: TimelineFilter): boolean {
  if (filter.status && filter.status.length > 0 && !filter.status.includes(row.status)) return false
  if (filter.endpointId && row.endpointId !== filter.endpointId) return false
  if (filter.subscriptionId && row.subscriptionId !== filter.subscriptionId) return false
  if (filter.eventType && row.eventType !== filter.eventType) return false
  // As the engine searches (store/timeline-reads.ts): event ids that start with the text, in any
  // ASCII case, by Hookloop's id or the id the consumer saw; a received row without a dedupe key
  // has no event id to find.
  if (filter.search && !searchFinds(row, filter.search.toLowerCase())) return false
  if (filter.clock && clockKey(row.clock) !== filter.clock) return false
  return true
}

function reindex(rows: TimelineRow[], from: number, index: Map<string, number>): void {
  for (let i = from; i < rows.length; i++) index.set((rows[i] as TimelineRow).key, i)
}

/**
 * Upserts a batch. Rows that stop matching the filter leave; new matching rows enter in order.
 * Positions are read before anything moves: rows replaced in place first, then every row that
 * leaves or moves is taken out in one pass, then the rest go in at their places (a position read
 * after an earlier splice of the same batch would point at another row).
 */
export function applyUpserts(model: TimelineModel, batch: TimelineRow[], filter: TimelineFilter): TimelineModel {
  if (batch.length === 0) return model
  let rows = model.rows.slice()
  const index = new Map(model.index)
  let total = model.total
  let dirtyFrom = Number.POSITIVE_INFINITY
  const latest = new Map(batch.map((row) => [row.key, row])) // a key twice in one batch: the last wins
  const leaving = new Set<number>()
  const entering: Array<{ row: TimelineRow; isNew: boolean }> = []
  for (const row of latest.values()) {
    const at = index.get(row.key)
    const matches = matchesFilter(row, filter)
    if (at === undefined) {
      if (!matches) continue
      total++
      entering.push({ row, isNew: true })
      continue
    }
    if (matches && compareRows(rows[at] as TimelineRow, row) === 0) {
      rows[at] = row // same place in the order: replace in place
      continue
    }
    leaving.add(at)
    index.delete(row.key)
    dirtyFrom = Math.min(dirtyFrom, at)
    if (matches) entering.push({ row, isNew: false })
    else total = Math.max(0, total - 1)
  }
  if (leaving.size > 0) rows = rows.filter((_, i) => !leaving.has(i))
  const oldest = model.rows[model.rows.length - 1]
  for (const { row, isNew } of entering) {
    // Older than everything loaded while more remain on the engine: it belongs to a later page.
    if (isNew && oldest && rows.length < total - 1 && compareRows(row, oldest) > 0) continue
    const pos = insertionPoint(rows, row)
    rows.splice(pos, 0, row)
    dirtyFrom = Math.min(dirtyFrom, pos)
  }
  if (dirtyFrom !== Number.POSITIVE_INFINITY) reindex(rows, dirtyFrom, index)
  return { rows, index, total, read: model.read }
}

function insertionPoint(rows: TimelineRow[], row: TimelineRow): number {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compareRows(rows[mid] as TimelineRow, row) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Appends a page read from the engine (rows already known are replaced). */
export function appendPage(model: TimelineModel, page: TimelineRow[], total: number): TimelineModel {
  const rows = model.rows.slice()
  const index = new Map(model.index)
  for (const row of page) {
    const at = index.get(row.key)
    if (at !== undefined) rows[at] = row
    else {
      index.set(row.key, rows.length)
      rows.push(row)
    }
  }
  return { rows, index, total, read: model.read }
}

/** The time span the rows cover, for "fit": from the first mark to the last mark or pending retry. */
export function timeExtent(rows: readonly TimelineRow[], relative: boolean): { start: number; end: number } | null {
  let start = Number.POSITIVE_INFINITY
  let end = Number.NEGATIVE_INFINITY
  for (const row of rows) {
    const origin = relative ? row.firstAt : 0
    for (const mark of row.marks) {
      start = Math.min(start, mark.at - origin)
      end = Math.max(end, mark.at + (mark.durationMs ?? 0) - origin, (mark.nextAt ?? 0) - origin)
    }
    if (row.nextAt !== null) end = Math.max(end, row.nextAt - origin)
  }
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null
  if (end - start < 1000) end = start + 1000
  // Room on both sides so the first and last marks (and their labels) are whole.
  const pad = (end - start) * 0.05
  return { start: start - pad, end: end + pad * 1.6 }
}
