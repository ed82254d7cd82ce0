// Fixed-height virtualization: only the rows in view (plus a little overscan) are in the DOM,
// whatever the list's length.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'

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

export function useVirtualRows(count: number, onNearEnd?: () => void) {
  const viewport = useRef<HTMLDivElement | null>(null)
  // The first row in view, not the pixel offset: scrolling within a row renders nothing.
  const [topRow, setTopRow] = useState(0)
  const height = useElementSize(viewport, 'clientHeight')

  const onScroll = useCallback(() => {
    const el = viewport.current
    if (el) setTopRow(Math.floor(el.scrollTop / ROW_HEIGHT))
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

  return { viewport, onScroll, first, last, totalHeight: count * ROW_HEIGHT, reveal }
}
