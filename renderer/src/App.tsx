// The app shell: connects to the engine, then top bar, navigation, the current view and the
// inspector. Loading, connection-lost and error states are explicit.
import { useEffect } from 'react'
import { applyBatch, createFrameApplier, loadSnapshot, reloadTimeline, useApp, type ViewId } from './state'
import { createEngineClient, findEngineAddress } from './transport/client'
import { EndpointsPage } from './views/EndpointsPage'
import { Inspector } from './views/Inspector'
import { SenderPage } from './views/SenderPage'
import { SHORTCUTS, useShortcuts } from './views/shortcuts'
import { SubscriptionsPage } from './views/SubscriptionsPage'
import { ScenariosPage } from './views/ScenariosPage'
import { ChecksPage } from './views/ChecksPage'
import { BreakpointsPage, HeldBanner } from './views/BreakpointsPage'
import { ExportDialog, ImportDialog } from './views/ExportImport'
import { TimelinePage } from './views/TimelinePage'
import { TopBar } from './views/TopBar'
import { COUNT_WORDS, countText } from '../../shared/contract'

export function App() {
  const snapshot = useApp((s) => s.snapshot)
  const loadError = useApp((s) => s.loadError)
  const connection = useApp((s) => s.connection)
  useShortcuts()

  useEffect(() => {
    let closed = false
    let dispose = () => {}
    findEngineAddress().then(
      (address) => {
        if (closed) return
        const client = createEngineClient(address)
        const offEvents = client.onEvents(createFrameApplier(applyBatch))
        const offConnection = client.onConnection((state) => {
          useApp.setState({ connection: state })
          // On every (re)connect, read the whole state again: events may have been missed.
          if (state.state === 'open') void loadSnapshot().then(reloadTimeline)
        })
        useApp.setState({ client })
        dispose = () => {
          offEvents()
          offConnection()
          client.close()
        }
      },
      (error: unknown) => useApp.setState({ loadError: error instanceof Error ? error.message : String(error) }),
    )
    return () => {
      closed = true
      dispose()
    }
  }, [])

  if (!snapshot) {
    return (
      <div className="center" data-testid="app-loading">
        {loadError ? (
          <div>
            <h2>Hookloop cannot reach its engine</h2>
            <p className="error-text">{loadError}</p>
          </div>
        ) : (
          <div className="row">
            <span className="spinner" /> Connecting to the engine…
          </div>
        )}
      </div>
    )
  }
  return (
    <div className="app" data-testid="app">
      <TopBar />
      <Shell />
      <Toasts lost={connection.state === 'closed' ? connection.reason : null} />
      <ShortcutsDialog />
      <Dialogs />
    </div>
  )
}

const NAV: { id: ViewId; label: string }[] = [
  { id: 'timeline', label: 'Timeline' },
  { id: 'endpoints', label: 'Endpoints & rules' },
  { id: 'sender', label: 'Sender' },
  { id: 'subscriptions', label: 'Subscriptions' },
  { id: 'scenarios', label: 'Scenarios' },
  { id: 'checks', label: 'Checks' },
  { id: 'breakpoints', label: 'Breakpoints' },
]

function Shell() {
  const view = useApp((s) => s.view)
  const inspecting = useApp((s) => s.selection !== null && s.view === 'timeline')
  // A forwarded row's inspector is wider: both legs are shown side by side.
  const forwarded = useApp((s) => {
    const i = s.selection ? s.timeline.index.get(s.selection.rowKey) : undefined
    return i !== undefined && (s.timeline.rows[i]?.marks.some((m) => m.app !== undefined) ?? false)
  })
  const warnings = useApp((s) => s.snapshot?.warnings ?? [])
  const total = useApp((s) => s.timeline.total)
  return (
    <div style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <HeldBanner />
      {warnings.map((w) => (
        <div key={w} className="banner" data-testid="warning">
          ⚠ {w}
        </div>
      ))}
      <div className={`body${inspecting ? ' with-inspector' : ''}${inspecting && forwarded ? ' wide' : ''}`} style={{ flex: 1 }}>
        <nav className="nav" aria-label="views">
          {NAV.map((item, i) => (
            <button key={item.id} className={view === item.id ? 'active' : ''} onClick={() => useApp.setState({ view: item.id })} data-testid={`nav-${item.id}`}>
              {item.label}
              <kbd>{i + 1}</kbd>
            </button>
          ))}
          <div className="footer" title={COUNT_WORDS.rows.explain} data-testid="nav-row-count">
            {countText(total, 'row')} on the timeline
          </div>
        </nav>
        {view === 'timeline' && <TimelinePage />}
        {view === 'endpoints' && <EndpointsPage />}
        {view === 'sender' && <SenderPage />}
        {view === 'subscriptions' && <SubscriptionsPage />}
        {view === 'scenarios' && <ScenariosPage />}
        {view === 'checks' && <ChecksPage />}
        {view === 'breakpoints' && <BreakpointsPage />}
        {inspecting && <Inspector />}
      </div>
    </div>
  )
}

function Dialogs() {
  const dialog = useApp((s) => s.dialog)
  if (dialog === 'export') return <ExportDialog />
  if (dialog === 'import') return <ImportDialog />
  return null
}

/** Toasts take a strip of their own under the views (the views shrink to make room): a toast never covers a control. */
function Toasts({ lost }: { lost: string | null }) {
  const toasts = useApp((s) => s.toasts)
  return (
    <div className="toasts" role="status" data-testid="toasts">
      {lost !== null && <div className="toast error">Connection to the engine lost ({lost}); reconnecting…</div>}
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.tone}`} data-testid="toast">
          {t.text}
        </div>
      ))}
    </div>
  )
}

function ShortcutsDialog() {
  const open = useApp((s) => s.showShortcuts)
  if (!open) return null
  return (
    <div className="overlay" onClick={() => useApp.setState({ showShortcuts: false })}>
      <div className="dialog" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <div className="shortcuts">
          {SHORTCUTS.map(([keys, what]) => (
            <div key={keys} style={{ display: 'contents' }}>
              <kbd>{keys}</kbd>
              <span>{what}</span>
            </div>
          ))}
        </div>
      </div>
    </div>
  )
}
