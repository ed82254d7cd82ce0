// The timeline's rows as read from the engine under the filter, a page at a time, the rows that
// arrived while the filter hid them, and the links that show a thing on the timeline.
import type { TimelineFilter, TimelineRow } from '../../../shared/contract'
import { useApp, type AppState } from './app-store'
import { appendPage, emptyTimeline, type TimelineModel } from './timeline-model'
import { latestArrival, revealingFilter, stillHidden, type ArrivalView } from './hidden-arrivals'
import { sharedClock } from './clock-groups'
import { noteSeen } from './seen-activity'

export interface TimelineRows {
  timeline: TimelineModel
  timelineLoading: boolean
  filter: TimelineFilter
  /** Rows that arrived (or moved) while the filter hid them, by key, in the order they first arrived (hidden-arrivals.ts). */
  hiddenArrivals: ReadonlyMap<string, TimelineRow>
}

const PAGE = 300

let timelineGeneration = 0
/** Re-reads the timeline from the first page (after a filter change or a reset). */
export async function reloadTimeline(): Promise<void> {
  const { client, filter } = useApp.getState()
  if (!client) return
  const generation = ++timelineGeneration
  useApp.setState({ timelineLoading: true })
  try {
    const page = await client.call('timeline.page', { offset: 0, limit: PAGE, filter })
    if (generation !== timelineGeneration) return
    noteSeen(page.rows)
    useApp.setState({ timeline: appendPage({ ...emptyTimeline, read: generation }, page.rows, page.total), timelineLoading: false })
  } catch (error) {
    if (generation !== timelineGeneration) return
    useApp.setState({ timelineLoading: false, loadError: error instanceof Error ? error.message : String(error) })
  }
}

let loadingMore = false
/** Loads the next page when the list is scrolled near its end. */
export async function loadMoreRows(): Promise<void> {
  const { client, filter, timeline } = useApp.getState()
  if (!client || loadingMore || timeline.rows.length >= timeline.total) return
  loadingMore = true
  const generation = timelineGeneration
  try {
    const page = await client.call('timeline.page', { offset: timeline.rows.length, limit: PAGE, filter })
    noteSeen(page.rows)
    if (generation === timelineGeneration) useApp.setState((s) => ({ timeline: appendPage(s.timeline, page.rows, page.total) }))
  } finally {
    loadingMore = false
  }
}

export function setFilter(patch: Partial<TimelineFilter>): void {
  // Another clock is another axis: a zoom or pan chosen on the last one means nothing on it.
  const axis = 'clock' in patch && patch.clock !== useApp.getState().filter.clock ? { window: null, live: true } : {}
  useApp.setState((s) => {
    const filter = clean({ ...s.filter, ...patch })
    return { filter, selection: null, hiddenArrivals: stillHidden(s.hiddenArrivals, filter), ...axis }
  })
  void reloadTimeline()
}

/**
 * What every "show / watch on timeline" link does: exactly the filter that names the thing (no
 * filter left from before that could hide its rows). It picks no clock: rows on one clock read on
 * that clock's axis anyway, and traffic on another clock that arrives later must show beside them
 * (grouped, one axis each), not be hidden by a clock the person never picked (docs/ui.md).
 */
export async function showOnTimeline(filter: TimelineFilter): Promise<void> {
  const wanted = clean(filter)
  useApp.setState((s) => ({ view: 'timeline', filter: wanted, selection: null, window: null, live: true, hiddenArrivals: stillHidden(s.hiddenArrivals, wanted) }))
  await reloadTimeline()
}

/** What the timeline shows now, for counting what it hides: the filter and, with Live off, the window on its one clock (the table has no window). */
export function arrivalView(s: Pick<AppState, 'filter' | 'live' | 'window' | 'relative' | 'timeline' | 'layout'>): ArrivalView {
  const window = s.live || s.layout !== 'timeline' ? null : s.window
  return { filter: s.filter, window, relative: s.relative, axisClock: window ? (s.filter.clock ?? sharedClock(s.timeline.rows)) : null }
}

/**
 * The notice's one click: the view that shows the rows that arrived hidden, with the latest of
 * them selected (scrolled to, and open in the inspector).
 */
export async function showHiddenArrivals(): Promise<void> {
  const { hiddenArrivals, filter } = useApp.getState()
  const latest = latestArrival(hiddenArrivals)
  if (!latest) return
  await showOnTimeline(revealingFilter(hiddenArrivals, filter))
  if (useApp.getState().timeline.index.has(latest.key)) useApp.setState({ selection: { rowKey: latest.key } })
}

export function clearFilters(): void {
  useApp.setState({ filter: {}, selection: null, hiddenArrivals: new Map() })
  void reloadTimeline()
}

function clean(filter: TimelineFilter): TimelineFilter {
  const out: TimelineFilter = {}
  if (filter.status && filter.status.length > 0) out.status = filter.status
  if (filter.endpointId) out.endpointId = filter.endpointId
  if (filter.subscriptionId) out.subscriptionId = filter.subscriptionId
  if (filter.eventType) out.eventType = filter.eventType
  if (filter.search) out.search = filter.search
  if (filter.clock) out.clock = filter.clock
  return out
}
