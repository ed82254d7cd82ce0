// The UI's state, in one zustand store with narrow selectors: what the engine told us (snapshot,
// timeline rows) and what the person chose (view, selection, filter, zoom). Engine events land
// here through applyBatch(), called at most once per animation frame.
import { create } from 'zustand'
import type { EventMessage, Snapshot, TimelineFilter, TimelineRow } from '../../../shared/contract'
import type { ScenarioReport } from '../../../shared/scenario'
import type { ConnectionState, EngineClient } from '../transport/client'
import { appendPage, applyUpserts, emptyTimeline, type TimelineModel } from './timeline-model'
import { clockKey, sharedClock } from './clock-groups'
import { createEventBatcher } from '../../../shared/contract'

export type ViewId = 'timeline' | 'endpoints' | 'sender' | 'subscriptions' | 'scenarios' | 'checks'

/** The scenario open in the editor: its text and where it came from. */
export interface ScenarioDraft {
  text: string
  /** File name to save under (and shown in the header). */
  fileName: string
  /** What the recording could not say exactly as it happened. */
  notes: string[]
}

/** A verdict drawn on the timeline rows a scenario's expectations are about (by event id). */
export interface RowVerdict {
  ok: boolean
  /** One line per expectation about this row. */
  lines: string[]
}
export type Selection = { rowKey: string; mark?: { kind: 'attempt' | 'request'; id: number } } | null

export interface Toast {
  id: number
  tone: 'info' | 'error' | 'ok'
  text: string
}

export interface TimeWindow {
  start: number
  end: number
}

export interface AppState {
  client: EngineClient | null
  connection: ConnectionState
  snapshot: Snapshot | null
  loadError: string | null
  timeline: TimelineModel
  timelineLoading: boolean
  filter: TimelineFilter
  view: ViewId
  layout: 'timeline' | 'table'
  selection: Selection
  window: TimeWindow | null
  relative: boolean
  live: boolean
  toasts: Toast[]
  showShortcuts: boolean
  draft: ScenarioDraft | null
  /** Event id → the last scenario run's verdict on it. */
  verdicts: ReadonlyMap<string, RowVerdict>
  /** Event key → expected attempt times (the sender check's ghosts). */
  ghosts: ReadonlyMap<string, number[]>
  /** Rows picked for export (Ctrl/⌘-click), besides the selected one. */
  picked: ReadonlySet<string>
  dialog: 'export' | 'import' | null
  /** An event whose row, once it arrives, the timeline switches to (its clock): "Try the loop". */
  following: string | null
  /** The scenario text the last run from this window started from (its report speaks for that text only). */
  ranText: string | null
  /**
   * Moves whenever the engine says rows changed in the store, whatever the filters show: counts
   * read from the store (the top bar's) read again on it instead of waiting for their timer.
   */
  storeVersion: number
}

const PAGE = 300

export const useApp = create<AppState>(() => ({
  client: null,
  connection: { state: 'connecting' },
  snapshot: null,
  loadError: null,
  timeline: emptyTimeline,
  timelineLoading: false,
  filter: {},
  view: 'timeline',
  layout: 'timeline',
  selection: null,
  window: null,
  relative: false,
  live: true,
  toasts: [],
  showShortcuts: false,
  draft: null,
  verdicts: new Map(),
  ghosts: new Map(),
  picked: new Set(),
  dialog: null,
  following: null,
  ranText: null,
  storeVersion: 0,
}))

export function togglePicked(key: string): void {
  useApp.setState((s) => {
    const picked = new Set(s.picked)
    if (!picked.delete(key)) picked.add(key)
    return { picked }
  })
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

let toastId = 0
export function toast(tone: Toast['tone'], text: string): void {
  const id = ++toastId
  useApp.setState((s) => ({ toasts: [...s.toasts.slice(-3), { id, tone, text }] }))
  setTimeout(() => useApp.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), tone === 'error' ? 7000 : 3500)
}

/** Runs a command and reports a failure as a toast; resolves to undefined on failure. */
export async function run<T>(what: string, action: (client: EngineClient) => Promise<T>): Promise<T | undefined> {
  const client = useApp.getState().client
  if (!client) return undefined
  try {
    return await action(client)
  } catch (error) {
    toast('error', `${what}: ${error instanceof Error ? error.message : String(error)}`)
    return undefined
  }
}

export async function loadSnapshot(): Promise<void> {
  const client = useApp.getState().client
  if (!client) return
  try {
    const snapshot = await client.call('snapshot', {})
    // A run that finished before this window connected still marks its rows.
    const report = snapshot.scenarioRun?.report
    useApp.setState({ snapshot, loadError: null, ...(report ? { verdicts: verdictsOf(report) } : {}) })
  } catch (error) {
    useApp.setState({ loadError: error instanceof Error ? error.message : String(error) })
  }
}

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

/** Applies one frame's worth of engine events. */
export function applyBatch(batch: EventMessage[]): void {
  let upserts: TimelineRow[] = []
  let reset = false
  const patch: Partial<AppState> = {}
  let snapshot = useApp.getState().snapshot
  for (const event of batch) {
    switch (event.name) {
      case 'timeline.upsert':
        upserts = upserts.concat(event.payload.rows)
        break
      case 'timeline.reset':
        reset = true
        break
      case 'endpoints.changed':
        if (snapshot) snapshot = { ...snapshot, endpoints: event.payload.endpoints }
        break
      case 'rules.changed':
        if (snapshot) snapshot = { ...snapshot, rules: event.payload.rules }
        break
      case 'subscriptions.changed':
        if (snapshot) snapshot = { ...snapshot, subscriptions: event.payload.subscriptions }
        break
      case 'tunnel.state':
        if (snapshot) snapshot = { ...snapshot, tunnel: event.payload }
        break
      case 'clock.state':
        if (snapshot) snapshot = { ...snapshot, clock: event.payload }
        break
      case 'simulations.changed':
        if (snapshot) snapshot = { ...snapshot, simulations: event.payload.simulations }
        break
      case 'recording.state':
        if (snapshot) snapshot = { ...snapshot, recording: event.payload }
        break
      case 'scenario.progress': {
        const run = event.payload
        if (snapshot) snapshot = { ...snapshot, scenarioRun: run }
        if (run.report) patch.verdicts = verdictsOf(run.report)
        break
      }
      default: {
        const never: never = event
        return never
      }
    }
  }
  if (snapshot !== useApp.getState().snapshot) patch.snapshot = snapshot
  noticeClocks(upserts, snapshot)
  if (upserts.length > 0 && !reset) {
    const { timeline, filter } = useApp.getState()
    patch.timeline = applyUpserts(timeline, upserts, filter)
  }
  if (upserts.length > 0 || reset) patch.storeVersion = useApp.getState().storeVersion + 1
  if (Object.keys(patch).length > 0) useApp.setState(patch)
  if (reset) void reloadTimeline()
}

const askedSimulations = new Set<string>()
/** A row of a simulation the snapshot does not list yet: read the snapshot again for its name; a followed row: show its clock. */
function noticeClocks(rows: TimelineRow[], snapshot: Snapshot | null): void {
  const following = useApp.getState().following
  let unknown = false
  for (const row of rows) {
    if (following !== null && row.eventId === following) {
      useApp.setState({ following: null })
      void showOnTimeline({ clock: clockKey(row.clock) })
    }
    if (row.clock.kind !== 'simulated' || !snapshot) continue
    const id = row.clock.simulationId
    if (askedSimulations.has(id) || snapshot.simulations.some((s) => s.id === id)) continue
    askedSimulations.add(id)
    unknown = true
  }
  if (unknown) void loadSnapshot()
}

/** What a frame applier waits on (each returns its cancel): the next frame, and a timer for when frames stop coming. */
export interface FrameTimers {
  frame(run: () => void): () => void
  timeout(run: () => void, ms: number): () => void
}

const browserTimers: FrameTimers = {
  frame: (run) => cancelAnimationFrame.bind(window, requestAnimationFrame(run)),
  timeout: (run, ms) => clearTimeout.bind(window, setTimeout(run, ms)),
}

/**
 * Collects event batches, merged as the host merges them (each row once, latest wins; each state
 * event once), and applies them on the next animation frame — or after maxWaitMs when no frame
 * comes: a hidden window gets none, and its queue must not grow without bound.
 */
export function createFrameApplier(apply: (batch: EventMessage[]) => void, timers: FrameTimers = browserTimers, maxWaitMs = 250): (batch: EventMessage[]) => void {
  const queue = createEventBatcher()
  let cancel: (() => void)[] = []
  const flush = () => {
    for (const stop of cancel) stop()
    cancel = []
    const batch = queue.drain()
    if (batch.length > 0) apply(batch)
  }
  return (batch) => {
    for (const event of batch) queue.add(event)
    if (cancel.length === 0) cancel = [timers.frame(flush), timers.timeout(flush, maxWaitMs)]
  }
}
