// Fixed-height virtualization: only the rows in view (plus a little overscan) are in the DOM,
// whatever the list's length. Scrolled down, the view keeps the row being read in place while rows
// arrive above it, and counts them (lib/scroll-anchor.ts).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { shiftUnder, stillAbove, type ListKeys, type ScrollAnchor } from '../lib/scroll-anchor'

export const ROW_HEIGHT = 40
const OVERSCAN = 6

/** An element's width or height, followed as it resizes (600 until it is laid out). */
export function useElementSize(ref: RefObject<HTMLElement | null>, side: 'clientWidth' | 'clientHeight'): number {
  const [size, setSize] = useState(600)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const observer = new ResizeObserver(() => setSize(el[side]))
    observer.observe(el)
    setSize(el[side])
    return () => observer.disconnect()
  }, [ref, side])
  return size
}

const NONE: ReadonlySet<string> = new Set()
const AT_TOP = { index: 0, key: null }

/** The item at the top of a scrolled-down view and how far into it the view starts; null at the list's top. */
function anchorAt(el: HTMLElement, list: ListKeys | undefined): ScrollAnchor | null {
  // Under a pixel from the top is the top (a zoomed page scrolls by fractions).
  if (el.scrollTop < 1) return null
  const top = Math.floor(el.scrollTop / ROW_HEIGHT)
  const key = list?.keyAt(top)
  return key === undefined ? null : { key, offset: el.scrollTop - top * ROW_HEIGHT }
}

/**
 * The rows of a list `count` long in view. With `list` (its keys, a new object whenever the list
 * changes), rows that arrive above a scrolled-down view move the view with the row being read and
 * are counted in `above` until the person scrolls up to them; `toTop` goes to the newest.
 */
export function useVirtualRows(count: number, onNearEnd?: () => void, list?: ListKeys) {
  const viewport = useRef<HTMLDivElement | null>(null)
  // The first row in view, not the pixel offset: scrolling within a row renders nothing. Scrolled
  // down, also its key: a list that changed is rendered around that row where the list has it now,
  // at once, instead of the rows at its old index for one render and these the next (under a flood
  // of arrivals each change mounted the rows in view twice); the layout effect below then moves the
  // scroll position to it before the frame is painted.
  const [top, setTop] = useState<{ index: number; key: string | null }>(AT_TOP)
  const height = useElementSize(viewport, 'clientHeight')
  // The list as last laid out, and where the person reads in it.
  const laidOut = useRef(list)
  const anchor = useRef<ScrollAnchor | null>(null)
  const [arrived, setArrived] = useState(NONE)

  const onScroll = useCallback(() => {
    const el = viewport.current
    if (!el) return
    const index = Math.floor(el.scrollTop / ROW_HEIGHT)
    const shown = laidOut.current
    const at = anchorAt(el, shown)
    anchor.current = at
    const key = at?.key ?? null
    setTop((t) => (t.index === index && t.key === key ? t : { index, key }))
    // At the top every arrival is in view; further down, the ones scrolled back up to are seen.
    setArrived((a) => (at === null ? NONE : shown ? stillAbove(a, shown, index) : a))
  }, [])

  // Before the frame is painted: the browser's own scroll anchoring is off (overflow-anchor: none
  // on the viewport), so the row being read stays where it was only if the view moves with it here.
  useLayoutEffect(() => {
    const before = laidOut.current
    laidOut.current = list
    const el = viewport.current
    if (!el || !list || !before || before === list) return
    if (before.read !== list.read) {
      // The list was read again (a filter, a reset): nothing arrived; the place is what is at the top now.
      anchor.current = anchorAt(el, list)
      setTop({ index: Math.floor(el.scrollTop / ROW_HEIGHT), key: anchor.current?.key ?? null })
      setArrived(NONE)
      return
    }
    const at = anchor.current
    const shift = at && shiftUnder(before, list, at)
    if (!at || !shift) return
    el.scrollTop = shift.index * ROW_HEIGHT + at.offset
    setTop({ index: shift.index, key: at.key })
    if (shift.arrived.length > 0) setArrived((a) => new Set([...a, ...shift.arrived]))
  }, [list])

  const topRow = (top.key !== null && list ? list.indexOf(top.key) : undefined) ?? top.index
  const above = useMemo(() => (arrived.size === 0 || !list ? 0 : stillAbove(arrived, list, topRow).size), [arrived, list, topRow])
  /** To the newest row, at the top; the count clears as the view gets there. */
  const toTop = useCallback(() => {
    if (viewport.current) viewport.current.scrollTop = 0
  }, [])

  const first = Math.max(0, topRow - OVERSCAN)
  const last = Math.min(count, topRow + Math.ceil(height / ROW_HEIGHT) + 1 + OVERSCAN)

  useEffect(() => {
    if (onNearEnd && count > 0 && last >= count - OVERSCAN * 2) onNearEnd()
  }, [last, count, onNearEnd])

  /** Brings row i into view (keyboard navigation). */
  const reveal = useCallback((i: number) => {
    const el = viewport.current
    if (!el) return
    const top = i * ROW_HEIGHT
    if (top < el.scrollTop) el.scrollTop = top
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight
  }, [])

  return { viewport, onScroll, first, last, totalHeight: count * ROW_HEIGHT, reveal, above, toTop }
}
