// A scrolled list while rows arrive above the rows in view: the person keeps reading the row they
// were reading (the view moves with it, not with the list's top), and the rows that came above it
// are counted, each once, for the "↑ 3 new rows" pill (views/NewRowsAbove.tsx). At the top of the
// list nothing is kept: the newest rows push in at the top, in view. Pure: the list is seen through
// its keys. What the view's filter or window hides is the other notice's (state/hidden-arrivals.ts).

/** A list as its scroll sees it. */
export interface ListKeys {
  /** The key of item i (a row, or a group's header). */
  keyAt(i: number): string | undefined
  /** Where the item with this key is now (undefined: not in the list). */
  indexOf(key: string): number | undefined
  /** Whether item i is a row: a group's header is not counted as one. */
  isRow(i: number): boolean
  /** Which read of the engine the list comes from (`TimelineModel.read`): rows of another read did not arrive. */
  read: number
}

/** Where a scrolled-down view is: the item at its top, and how far into that item it starts (px). */
export interface ScrollAnchor {
  key: string
  offset: number
}

export interface AnchorShift {
  /** Where the anchor's item is now. */
  index: number
  /** The rows that came above it, newest first: new to the list, or moved up from at or below it. */
  arrived: string[]
}

/**
 * How the list moved under the anchor from one version to the next (same read): null when the
 * anchor's item kept its place (rows replaced in place, pages added at the end) or left the list.
 */
export function shiftUnder(before: ListKeys, after: ListKeys, anchor: ScrollAnchor): AnchorShift | null {
  const was = before.indexOf(anchor.key)
  const index = after.indexOf(anchor.key)
  if (was === undefined || index === undefined || was === index) return null
  const arrived: string[] = []
  for (let i = 0; i < index; i++) {
    const key = after.keyAt(i)
    if (key === undefined || !after.isRow(i)) continue
    const at = before.indexOf(key)
    if (at === undefined || at >= was) arrived.push(key)
  }
  return { index, arrived }
}

/** The arrivals still above the view's top item (`top`): a row scrolled back up to has been seen, one that left the list is gone. The same set when none changed. */
export function stillAbove(arrived: ReadonlySet<string>, list: ListKeys, top: number): ReadonlySet<string> {
  let out: Set<string> | null = null
  for (const key of arrived) {
    const at = list.indexOf(key)
    if (at !== undefined && at < top) continue
    ;(out ??= new Set(arrived)).delete(key)
  }
  return out ?? arrived
}

/** The keys of a list held as an array with a key → index map (the timeline model's rows). */
export function keysOf(rows: readonly { key: string }[], index: ReadonlyMap<string, number>, read: number): ListKeys {
  return { keyAt: (i) => rows[i]?.key, indexOf: (key) => index.get(key), isRow: () => true, read }
}
