// Fixed-height virtualization: only the rows in view (plus a little overscan) are in the DOM,
// whatever the list's length.
import { useCallback, useEffect, useRef, useState } from 'react'

export const ROW_HEIGHT = 40
const OVERSCAN = 6

export function useVirtualRows(count: number, onNearEnd?: () => void) {
  const viewport = useRef<HTMLDivElement | null>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const [height, setHeight] = useState(600)

  useEffect(() => {
    const el = viewport.current
    if (!el) return
    const observer = new ResizeObserver(() => setHeight(el.clientHeight))
    observer.observe(el)
    setHeight(el.clientHeight)
    return () => observer.disconnect()
  }, [])

  const onScroll = useCallback(() => {
    const el = viewport.current
    if (el) setScrollTop(el.scrollTop)
  }, [])

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN)
  const last = Math.min(count, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN)

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
