// The timeline's rows as read from the engine under the filter, a page at a time, and the links
// that show a thing on the timeline (its filter, then its clock).
import type { TimelineFilter } from '../../../shared/contract'
import { useApp } from './app-store'
import { appendPage, emptyTimeline, type TimelineModel } from './timeline-model'
import { clockKey, sharedClock } from './clock-groups'

export interface TimelineRows {
  timeline: TimelineModel
  timelineLoading: boolean
  filter: TimelineFilter
  /** An event whose row, once it arrives, the timeline switches to (its clock): "Try the loop". */
  following: string | null
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
    useApp.setState({ timeline: appendPage(emptyTimeline, page.rows, page.total), timelineLoading: false })
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
    if (generation === timelineGeneration) useApp.setState((s) => ({ timeline: appendPage(s.timeline, page.rows, page.total) }))
  } finally {
    loadingMore = false
  }
}

export function setFilter(patch: Partial<TimelineFilter>): void {
  // Another clock is another axis: a zoom or pan chosen on the last one means nothing on it.
  const axis = 'clock' in patch && patch.clock !== useApp.getState().filter.clock ? { window: null, live: true } : {}
  useApp.setState((s) => ({ filter: clean({ ...s.filter, ...patch }), selection: null, ...axis }))
  void reloadTimeline()
}

/**
 * What every "show / watch on timeline" link does: exactly the filter that names the thing (no
 * filter left from before that could hide its rows), and once its rows are read, the clock they
 * are on when they share one (else they show grouped by clock).
 */
export async function showOnTimeline(filter: TimelineFilter): Promise<void> {
  const wanted = clean(filter)
  useApp.setState({ view: 'timeline', filter: wanted, selection: null, window: null, live: true })
  await reloadTimeline()
  const { timeline, filter: current } = useApp.getState()
  if (current !== wanted || wanted.clock) return // changed again meanwhile, or the clock was named
  const key = timeline.rows.length === timeline.total ? sharedClock(timeline.rows) : null
  // Every matching row is loaded and on this clock: narrowing to it hides nothing.
  if (key) useApp.setState({ filter: { ...wanted, clock: key } })
}

/** Shows an event's simulation on the timeline as soon as its row arrives (after "Try the loop"). */
export function follow(eventId: string): void {
  const { timeline } = useApp.getState()
  const row = timeline.rows.find((r) => r.eventId === eventId)
  if (row) void showOnTimeline({ clock: clockKey(row.clock) })
  else {
    useApp.setState({ following: eventId })
    void showOnTimeline({})
  }
}

export function clearFilters(): void {
  useApp.setState({ filter: {}, selection: null })
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
