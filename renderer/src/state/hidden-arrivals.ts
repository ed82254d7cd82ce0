// Rows that arrived while the timeline's view hid them (another clock picked, a status, an
// endpoint, a search, a time window chosen with Live off): kept so the screen can say how many,
// on which clock and hidden by what, and show them in one click. Traffic that reached the store
// is never kept off the screen without a word.
import type { SimulationView, TimelineFilter, TimelineRow } from '../../../shared/contract'
import { clockKey, clockLabel } from './clock-groups'
import { matchesFilter } from './timeline-model'
import type { TimeWindow } from './ui-choices'

/** What can hide a row: a part of the filter, or the time window shown while Live is off. */
export type FilterPart = keyof TimelineFilter | 'window'

/** What the timeline shows: its filter and, while Live is off, the window chosen on one clock's axis. */
export interface ArrivalView {
  filter: TimelineFilter
  /** The window chosen by zoom or pan (null while Live follows the newest activity). */
  window: TimeWindow | null
  /** The clock that window is on (the picked one, or the one every loaded row shares); rows on another show in a group of their own. */
  axisClock: string | null
  relative: boolean
}

/** A view of the filter alone (Live on). */
export const filterView = (filter: TimelineFilter): ArrivalView => ({ filter, window: null, axisClock: null, relative: false })

/** Whether the window shows none of the row's marks (only on the window's own clock). */
function outsideWindow(row: TimelineRow, view: ArrivalView): boolean {
  const { window } = view
  if (!window || row.marks.length === 0 || clockKey(row.clock) !== view.axisClock) return false
  const origin = view.relative ? row.firstAt : 0
  const times = row.marks.map((m) => m.at - origin)
  return Math.max(...times) < window.start || Math.min(...times) > window.end
}

function shows(row: TimelineRow, view: ArrivalView): boolean {
  return matchesFilter(row, view.filter) && !outsideWindow(row, view)
}

/** Rows kept at most: past this, the notice says "10,000+" rather than grow without bound under a flood. */
export const MAX_HIDDEN_ARRIVALS = 10_000

/** What hides a row: the parts of the filter in its order, then the window (none: the row shows). */
export function partsHiding(row: TimelineRow, view: ArrivalView): FilterPart[] {
  const parts: FilterPart[] = (Object.keys(view.filter) as (keyof TimelineFilter)[]).filter((part) => !matchesFilter(row, { [part]: view.filter[part] } as TimelineFilter))
  if (parts.length === 0 && outsideWindow(row, view)) parts.push('window')
  return parts
}

/**
 * The hidden arrivals after a batch of upserts under `view`: a row the view hides is kept (its
 * latest version) when it has new activity (`seenBefore` says it had none: a verdict or a check
 * came later, seen-activity.ts), a row it shows leaves (it is on screen now). The same map when
 * nothing changed.
 */
export function noteArrivals(
  hidden: ReadonlyMap<string, TimelineRow>,
  upserts: readonly TimelineRow[],
  view: ArrivalView,
  seenBefore: (row: TimelineRow) => boolean = () => false,
): ReadonlyMap<string, TimelineRow> {
  let out: Map<string, TimelineRow> | null = null
  const edit = () => (out ??= new Map(hidden))
  for (const row of upserts) {
    if (shows(row, view)) {
      if ((out ?? hidden).has(row.key)) edit().delete(row.key)
    } else if ((out ?? hidden).has(row.key)) {
      // A row keeps its place when it moves again: the map's order is the order rows first arrived.
      edit().set(row.key, row)
    } else if (!seenBefore(row) && (out ?? hidden).size < MAX_HIDDEN_ARRIVALS) {
      edit().set(row.key, row)
    }
  }
  return out ?? hidden
}

/** What stays hidden once the filter changes to `filter` (Live on): the rows it shows now are seen. */
export function stillHidden(hidden: ReadonlyMap<string, TimelineRow>, filter: TimelineFilter): ReadonlyMap<string, TimelineRow> {
  if (hidden.size === 0) return hidden
  const out = new Map([...hidden].filter(([, row]) => !matchesFilter(row, filter)))
  return out.size === hidden.size ? hidden : out
}

export interface HiddenPlace {
  /** The clock's filter value ('wall' or a simulation id) and its name on the picker. */
  clock: string
  label: string
  count: number
}

export interface HiddenNotice {
  count: number
  /** Full: more arrived than are kept, so `count` is a floor. */
  full: boolean
  /** Where they are, by clock: live traffic first, then the simulations. */
  places: HiddenPlace[]
  /** What hides them, in words: "the clock picked", "the status filter" … */
  hiddenBy: string[]
}

const PART_WORDS: Record<FilterPart, string> = {
  clock: 'the clock picked',
  status: 'the status filter',
  endpointId: 'the endpoint filter',
  subscriptionId: 'the subscription filter',
  eventType: 'the event type filter',
  search: 'the search',
  window: 'the time window shown (Live is off)',
}

/** The notice for the hidden arrivals the view still hides (Live turned on again shows some), or null when none. */
export function hiddenNotice(hidden: ReadonlyMap<string, TimelineRow>, view: ArrivalView, simulations: readonly SimulationView[]): HiddenNotice | null {
  if (hidden.size === 0) return null
  const places = new Map<string, HiddenPlace>()
  const parts = new Set<FilterPart>()
  let count = 0
  for (const row of hidden.values()) {
    const hiding = partsHiding(row, view)
    if (hiding.length === 0) continue
    count++
    for (const part of hiding) parts.add(part)
    const key = clockKey(row.clock)
    const place = places.get(key) ?? { clock: key, label: clockLabel(key, simulations, row.clock), count: 0 }
    place.count++
    places.set(key, place)
  }
  if (count === 0) return null
  const order = (p: HiddenPlace) => (p.clock === 'wall' ? -1 : simulations.findIndex((s) => s.id === p.clock) + 1 || simulations.length + 1)
  return {
    count,
    full: hidden.size >= MAX_HIDDEN_ARRIVALS,
    places: [...places.values()].sort((a, b) => order(a) - order(b)),
    hiddenBy: (Object.keys(PART_WORDS) as FilterPart[]).filter((p) => parts.has(p)).map((p) => PART_WORDS[p]),
  }
}

/**
 * The filter that shows the hidden arrivals (with Live on, which the window gives way to): every
 * part that hides one of them is let go, except the clock when they are all on one clock, which
 * turns to theirs (one axis, and the person lands on them rather than on every clock at once).
 */
export function revealingFilter(hidden: ReadonlyMap<string, TimelineRow>, filter: TimelineFilter): TimelineFilter {
  const parts = new Set<FilterPart>()
  const clocks = new Set<string>()
  for (const row of hidden.values()) {
    for (const part of partsHiding(row, filterView(filter))) parts.add(part)
    clocks.add(clockKey(row.clock))
  }
  const out: TimelineFilter = { ...filter }
  for (const part of parts) if (part !== 'window') delete out[part]
  if (parts.has('clock') && clocks.size === 1) out.clock = [...clocks][0] as string
  return out
}

/**
 * The newest of the hidden arrivals (the one to show first): on the clock of the row that arrived
 * last, the one with the latest activity there. Times are compared on one clock only.
 */
export function latestArrival(hidden: ReadonlyMap<string, TimelineRow>): TimelineRow | null {
  let last: TimelineRow | null = null
  for (const row of hidden.values()) last = row
  if (!last) return null
  const clock = clockKey(last.clock)
  let latest = last
  for (const row of hidden.values()) if (clockKey(row.clock) === clock && (row.lastAt ?? row.firstAt) > (latest.lastAt ?? latest.firstAt)) latest = row
  return latest
}
