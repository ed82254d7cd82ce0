// Tunnel state with copyable endpoint URLs, the clock mode, search by event id, the store's size,
// and who is signed in (a server with accounts). The controls of the store-wide commands (the
// clock, Record, starting and stopping the tunnel) show only where this socket may run them.
import { useEffect, useState } from 'react'
import type { TunnelView } from '../../../shared/contract'
import { run, setFilter, toast, useApp, useStoreWide } from '../state'
import { formatDuration } from '../lib/format'
import { RecordButton } from './RecordButton'
import { HistoryControl } from './HistoryControl'
import { AccountControl } from './AccountControl'

export function TopBar() {
  const storeWide = useStoreWide()
  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark">↻</span> Hookloop
      </div>
      <TunnelPill />
      {storeWide && <ClockControl />}
      {storeWide && <RecordButton />}
      <span className="spacer" />
      <Search />
      <HistoryControl />
      <button className="btn small" onClick={() => useApp.setState({ showShortcuts: true })} title="Keyboard shortcuts (?)">
        ?
      </button>
      <AccountControl />
    </header>
  )
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return now
}

function TunnelPill() {
  const tunnel = useApp((s) => s.snapshot?.tunnel)
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const receiverUrl = useApp((s) => s.snapshot?.receiverUrl ?? '')
  const storeWide = useStoreWide()
  const [open, setOpen] = useState(false)
  const now = useNow(tunnel?.state === 'reconnecting')
  if (!tunnel) return null
  const { tone, text } = describe(tunnel, now)
  const copyable = endpoints.map((e) => ({ name: e.name, url: e.publicUrl ?? e.localUrl }))
  return (
    <div className="tunnel-pill-wrap">
      <button className={`pill ${tone}`} onClick={() => setOpen(!open)} data-testid="tunnel-state" data-state={tunnel.state} title={`${text}: endpoint URLs`}>
        <span className="dot" />
        <span className="ellipsis">{text}</span>
      </button>
      {open && (
        <div className="card" style={{ position: 'absolute', top: 34, left: 0, zIndex: 30, minWidth: 560 }}>
          <div className="card-body">
            {storeWide ? (
              <TunnelControl tunnel={tunnel} />
            ) : (
              <div className="hint" data-testid="store-wide-elsewhere">
                The public tunnel, the sender clock and recording are the whole store&apos;s: they are set in the workspace <strong>default</strong>.
              </div>
            )}
            <div className="hint">Receiver on this machine: {receiverUrl}</div>
            {copyable.length === 0 && <div className="hint">No endpoints yet.</div>}
            {copyable.map((e) => (
              <div key={e.url} className="row" style={{ flexWrap: 'nowrap' }}>
                <span className="mono ellipsis" style={{ flex: 1 }} title={e.url}>
                  {e.url}
                </span>
                <button className="btn small" onClick={() => void navigator.clipboard.writeText(e.url).then(() => toast('ok', `Copied ${e.name}'s URL`))}>
                  Copy
                </button>
              </div>
            ))}
          </div>
        </div>
      )}
    </div>
  )
}

/** Start the public tunnel (a localtunnel server, an optional subdomain) or stop it. */
function TunnelControl({ tunnel }: { tunnel: TunnelView }) {
  const [host, setHost] = useState('https://localtunnel.me')
  const [subdomain, setSubdomain] = useState('')
  const [busy, setBusy] = useState(false)
  const up = tunnel.state !== 'disabled' && tunnel.state !== 'stopped'
  const act = async (start: boolean) => {
    setBusy(true)
    const view = await run(start ? 'Start tunnel' : 'Stop tunnel', (c) =>
      start ? c.call('tunnel.start', { host: host.trim(), ...(subdomain.trim() ? { subdomain: subdomain.trim() } : {}) }) : c.call('tunnel.stop', {}),
    )
    setBusy(false)
    const snapshot = useApp.getState().snapshot
    if (view && snapshot) useApp.setState({ snapshot: { ...snapshot, tunnel: view } })
  }
  if (up) {
    return (
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <span className="hint" style={{ flex: 1 }}>
          The public tunnel forwards to the receiver only; pages and the control socket never answer through it.
        </span>
        <button className="btn small" disabled={busy} onClick={() => void act(false)} data-testid="tunnel-stop">
          {busy ? <span className="spinner" /> : null} Stop tunnel
        </button>
      </div>
    )
  }
  return (
    <div data-testid="tunnel-form" style={{ display: 'flex', flexDirection: 'column', gap: 6, paddingBottom: 8, borderBottom: '1px solid var(--border)' }}>
      <strong>Public tunnel</strong>
      <span className="hint">Through a localtunnel server (the public one or your own), so a real provider can reach your endpoints.</span>
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <input className="input mono" style={{ flex: 3, minWidth: 0 }} value={host} onChange={(e) => setHost(e.target.value)} aria-label="tunnel server" title="localtunnel server (public or self-hosted)" data-testid="tunnel-host" />
        <input className="input mono" style={{ flex: 2, minWidth: 0 }} value={subdomain} onChange={(e) => setSubdomain(e.target.value)} placeholder="subdomain (optional)" aria-label="subdomain" data-testid="tunnel-subdomain" />
        <button className="btn small primary" disabled={busy || host.trim() === ''} onClick={() => void act(true)} data-testid="tunnel-start">
          {busy ? <span className="spinner" /> : null} Start tunnel
        </button>
      </div>
    </div>
  )
}

function describe(tunnel: TunnelView, now: number): { tone: string; text: string } {
  switch (tunnel.state) {
    case 'disabled':
      return { tone: '', text: 'Local only (no public tunnel)' }
    case 'connecting':
      return { tone: 'warn', text: 'Tunnel connecting…' }
    case 'online':
      return { tone: 'online', text: tunnel.url }
    case 'degraded':
      return { tone: 'warn', text: `${tunnel.url} (${tunnel.liveSockets}/${tunnel.maxSockets} sockets)` }
    case 'reconnecting':
      return { tone: 'warn', text: `Reconnecting in ${formatDuration(Math.max(0, tunnel.nextAt - now))} — ${tunnel.lastError}` }
    case 'offline':
      return { tone: 'bad', text: `Tunnel offline: ${tunnel.reason}` }
    case 'stopped':
      return { tone: '', text: 'Tunnel stopped' }
    default: {
      const never: never = tunnel
      return never
    }
  }
}

function ClockControl() {
  const clock = useApp((s) => s.snapshot?.clock)
  if (!clock) return null
  const set = (mode: 'real' | 'scaled' | 'virtual') =>
    void run('Clock', (c) => c.call('clock.set', mode === 'scaled' ? { mode, scale: 60 } : { mode })).then((view) => {
      const snapshot = useApp.getState().snapshot
      if (view && snapshot) useApp.setState({ snapshot: { ...snapshot, clock: view } })
    })
  return (
    <div className="row" style={{ gap: 6, flexWrap: 'nowrap' }} title={SIMULATION_ONLY}>
      <span className="hint nowrap" data-testid="clock-mode-label">
        Sender clock
      </span>
      <div className="segmented" role="radiogroup" aria-label="sender clock mode" data-testid="clock-mode">
        {(['real', 'scaled', 'virtual'] as const).map((mode) => (
          <button key={mode} className={clock.mode === mode ? 'active' : ''} onClick={() => set(mode)} title={`${CLOCK_HELP[mode]}. ${SIMULATION_ONLY}`}>
            {mode === 'scaled' ? `scaled ×${clock.mode === 'scaled' ? clock.scale : 60}` : mode}
          </button>
        ))}
      </div>
      {clock.mode !== 'real' && (
        <span className="hint nowrap" data-testid="clock-mode-scope">
          simulations only
        </span>
      )}
    </div>
  )
}

// docs/time.md: a clock mode belongs to a simulation; real traffic always runs on the wall clock.
const SIMULATION_ONLY =
  'Scaled and virtual clocks apply to simulations only (Try the loop, a scenario run, a sender session): requests that reach your endpoints are always recorded, and their signatures judged, on the wall clock.'

const CLOCK_HELP = {
  real: 'Retries wait as long as the policy says',
  scaled: 'Simulated retries run faster by a fixed factor',
  virtual: 'Simulated retries jump straight to the next due one: 14.5 h in a second',
}

function Search() {
  const search = useApp((s) => s.filter.search ?? '')
  const [text, setText] = useState(search)
  const [seen, setSeen] = useState(search)
  if (search !== seen) {
    // The filter changed elsewhere (cleared): show it.
    setSeen(search)
    setText(search)
  }
  useEffect(() => {
    if (text === search) return
    const timer = setTimeout(() => setFilter({ search: text.trim() || undefined }), 200)
    return () => clearTimeout(timer)
  }, [text, search])
  return (
    <input
      id="search"
      className="input search"
      placeholder="Search by event id or body text   /"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') (e.target as HTMLInputElement).blur()
      }}
      title="The start of an event id, in any case: the id your app saw (evt_…, X-GitHub-Delivery, webhook-id, a body's event_id) or Hookloop's own. A request with no event id is found by its body text."
      aria-label="search by event id"
    />
  )
}
