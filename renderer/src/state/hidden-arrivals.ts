// Rows that arrived while the timeline's filter hid them (another clock picked, a status, an
// endpoint, a search …): kept so the screen can say how many, on which clock and hidden by what,
// and show them in one click. Traffic that reached the store is never kept off the screen
// without a word.
import type { SimulationView, TimelineFilter, TimelineRow } from '../../../shared/contract'
import { clockKey, clockLabel } from './clock-groups'
import { matchesFilter } from './timeline-model'

export type FilterPart = keyof TimelineFilter

/** Rows kept at most: past this, the notice says "10,000+" rather than grow without bound under a flood. */
export const MAX_HIDDEN_ARRIVALS = 10_000

/** The parts of the filter that hide a row, in the filter's order (none: the row shows). */
export function partsHiding(row: TimelineRow, filter: TimelineFilter): FilterPart[] {
  return (Object.keys(filter) as FilterPart[]).filter((part) => !matchesFilter(row, { [part]: filter[part] } as TimelineFilter))
}

/**
 * The hidden arrivals after a batch of upserts under `filter`: a row the filter hides is kept
 * (its latest version), a row it shows leaves (it is on screen now). The same map when nothing changed.
 */
export function noteArrivals(hidden: ReadonlyMap<string, TimelineRow>, upserts: readonly TimelineRow[], filter: TimelineFilter): ReadonlyMap<string, TimelineRow> {
  let out: Map<string, TimelineRow> | null = null
  const edit = () => (out ??= new Map(hidden))
  for (const row of upserts) {
    if (matchesFilter(row, filter)) {
      if ((out ?? hidden).has(row.key)) edit().delete(row.key)
    } else if ((out ?? hidden).has(row.key) || (out ?? hidden).size < MAX_HIDDEN_ARRIVALS) {
      // Taken out and put back: the map's order is the order rows last moved, newest last.
      edit().delete(row.key)
      edit().set(row.key, row)
    }
  }
  return out ?? hidden
}

/** What stays hidden once the view changes to `filter`: the rows it shows now are seen. */
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
}

/** The notice for the hidden arrivals, or null when there are none. */
export function hiddenNotice(hidden: ReadonlyMap<string, TimelineRow>, filter: TimelineFilter, simulations: readonly SimulationView[]): HiddenNotice | null {
  if (hidden.size === 0) return null
  const places = new Map<string, HiddenPlace>()
  const parts = new Set<FilterPart>()
  for (const row of hidden.values()) {
    const key = clockKey(row.clock)
    const place = places.get(key) ?? { clock: key, label: clockLabel(key, simulations, row.clock), count: 0 }
    place.count++
    places.set(key, place)
    for (const part of partsHiding(row, filter)) parts.add(part)
  }
  const order = (p: HiddenPlace) => (p.clock === 'wall' ? -1 : simulations.findIndex((s) => s.id === p.clock) + 1 || simulations.length + 1)
  return {
    count: hidden.size,
    full: hidden.size >= MAX_HIDDEN_ARRIVALS,
    places: [...places.values()].sort((a, b) => order(a) - order(b)),
    hiddenBy: (Object.keys(PART_WORDS) as FilterPart[]).filter((p) => parts.has(p)).map((p) => PART_WORDS[p]),
  }
}

/**
 * The filter that shows the hidden arrivals: every part that hides one of them is let go, except
 * the clock when they are all on one clock, which turns to theirs (one axis, and the person lands
 * on them rather than on every clock at once).
 */
export function revealingFilter(hidden: ReadonlyMap<string, TimelineRow>, filter: TimelineFilter): TimelineFilter {
  const parts = new Set<FilterPart>()
  const clocks = new Set<string>()
  for (const row of hidden.values()) {
    for (const part of partsHiding(row, filter)) parts.add(part)
    clocks.add(clockKey(row.clock))
  }
  const out: TimelineFilter = { ...filter }
  for (const part of parts) delete out[part]
  if (parts.has('clock') && clocks.size === 1) out.clock = [...clocks][0] as string
  return out
}

/**
 * The hidden row that moved last (the one to show first): by the order they arrived in, since
 * rows on two clocks have no times to compare.
 */
export function latestArrival(hidden: ReadonlyMap<string, TimelineRow>): TimelineRow | null {
  let latest: TimelineRow | null = null
  for (const row of hidden.values()) latest = row
  return latest
}
