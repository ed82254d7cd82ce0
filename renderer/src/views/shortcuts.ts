// Keyboard shortcuts for the common moves. Ignored while typing in a field.
import { useEffect } from 'react'
import { run, toast, useApp, type ViewId } from '../state'
import { panBy, zoomBy } from './Timeline'

export const SHORTCUTS: [string, string][] = [
  ['1 – 7', 'Timeline, Endpoints & rules, Sender, Subscriptions, Scenarios, Checks, Breakpoints'],
  ['/', 'Search by event id'],
  ['j / k', 'Next / previous row'],
  ['Enter', 'Open the selected row'],
  ['Esc', 'Close the inspector'],
  ['t', 'Timeline / table'],
  ['+ / −', 'Zoom in / out'],
  ['← / →', 'Pan'],
  ['l', 'Follow live'],
  ['a', 'Align rows on their first attempt'],
  ['r', 'Retry the selected delivery now'],
  ['?', 'This list'],
]

const VIEWS: ViewId[] = ['timeline', 'endpoints', 'sender', 'subscriptions', 'scenarios', 'checks', 'breakpoints']

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable)) return
      if (event.ctrlKey || event.metaKey || event.altKey) return
      const state = useApp.getState()
      const rows = state.timeline.rows
      const move = (delta: number) => {
        const current = state.selection ? (state.timeline.index.get(state.selection.rowKey) ?? -1) : -1
        const next = rows[Math.max(0, Math.min(rows.length - 1, current + delta))]
        if (next) useApp.setState({ selection: { rowKey: next.key }, view: 'timeline' })
      }
      switch (event.key) {
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
          useApp.setState({ view: VIEWS[Number(event.key) - 1] ?? 'timeline' })
          break
        case '/':
          event.preventDefault()
          document.getElementById('search')?.focus()
          break
        case 'j':
          move(1)
          break
        case 'k':
          move(-1)
          break
        case 'Escape':
          useApp.setState(state.dialog ? { dialog: null } : { selection: null, showShortcuts: false, picked: new Set() })
          break
        case 't':
          useApp.setState({ layout: state.layout === 'timeline' ? 'table' : 'timeline' })
          break
        case '+':
        case '=':
          zoomBy(0.66, rows)
          break
        case '-':
          zoomBy(1.5, rows)
          break
        case 'ArrowLeft':
          panBy(-0.2, rows)
          break
        case 'ArrowRight':
          panBy(0.2, rows)
          break
        case 'l':
          useApp.setState({ live: !state.live, window: null })
          break
        case 'a':
          useApp.setState({ relative: !state.relative, window: null, live: true })
          break
        case 'r': {
          const i = state.selection ? state.timeline.index.get(state.selection.rowKey) : undefined
          const row = i !== undefined ? rows[i] : undefined
          if (row?.deliveryId != null) {
            const id = row.deliveryId
            void run('Retry now', (c) => c.call('delivery.retryNow', { id })).then((r) => r && toast('ok', 'Retrying now'))
          }
          break
        }
        case '?':
          useApp.setState({ showShortcuts: !state.showShortcuts })
          break
        default:
          return
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
