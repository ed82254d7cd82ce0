// The captured history in the top bar: the store's size at a glance, and behind it the retention
// settings (days, MB; the whole store's, so shown where this socket may set them: useStoreWide) and
// Clear history for every endpoint or one. The size is read from the
// engine when the store's rows change (at most every READ_GAP_MS), every few seconds, and after
// each change made here.
import { useCallback, useEffect, useRef, useState } from 'react'
import { formatBytes, RETENTION_LIMITS, type RetentionSettings, type StoreSizeView, COUNT_WORDS, countText } from '../../../shared/contract'
import { run, toast, useApp, useStoreWide } from '../state'

const REFRESH_MS = 5000
/** A burst of captures reads the size once per gap, not once per row. */
const READ_GAP_MS = 250

function useStoreSize(): [StoreSizeView | null, () => void] {
  const client = useApp((s) => s.client)
  const version = useApp((s) => s.storeVersion)
  const [size, setSize] = useState<StoreSizeView | null>(null)
  const refresh = useCallback(() => {
    if (!client) return
    void client.call('history.size', {}).then(setSize, () => undefined)
  }, [client])
  useEffect(() => {
    refresh()
    const timer = setInterval(refresh, REFRESH_MS)
    return () => clearInterval(timer)
  }, [refresh])
  // Rows changed in the store (a capture here, or by `listen` on the same folder): the count follows,
  // one read per gap however many changes arrive in it (a timer already waiting covers them).
  const waiting = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => {
    if (version === 0 || waiting.current !== null) return
    waiting.current = setTimeout(() => {
      waiting.current = null
      refresh()
    }, READ_GAP_MS)
  }, [version, refresh])
  useEffect(
    () => () => {
      if (waiting.current !== null) clearTimeout(waiting.current)
    },
    [],
  )
  return [size, refresh]
}

export function HistoryControl() {
  const [size, refresh] = useStoreSize()
  const [open, setOpen] = useState(false)
  if (!size) return null
  return (
    <div style={{ position: 'relative' }}>
      <button
        className="pill"
        onClick={() => setOpen(!open)}
        data-testid="store-size"
        data-bytes={size.usedBytes}
        data-requests={size.requests}
        title={`Store: ${formatBytes(size.usedBytes)} in use, ${countText(size.requests, 'captured request')}. ${COUNT_WORDS.capturedRequests.explain} Retention and Clear history`}
      >
        <span className="ellipsis">
          {formatBytes(size.usedBytes)} · {countText(size.requests, 'request')}
        </span>
      </button>
      {open && <HistoryPanel size={size} refresh={refresh} />}
    </div>
  )
}

function limitInput(value: number | null): string {
  return value === null ? '' : String(value)
}

function parseLimit(text: string, bounds: { min: number; max: number }, what: string): number | null | string {
  const trimmed = text.trim()
  if (trimmed === '') return null
  if (!/^\d+$/.test(trimmed)) return `${what}: a whole number, or empty for no limit`
  const n = Number(trimmed)
  if (n < bounds.min || n > bounds.max) return `${what}: from ${bounds.min} to ${bounds.max}`
  return n
}

function HistoryPanel({ size, refresh }: { size: StoreSizeView; refresh: () => void }) {
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const storeWide = useStoreWide()
  const [days, setDays] = useState(limitInput(size.retention.days))
  const [maxMb, setMaxMb] = useState(limitInput(size.retention.maxMb))
  const [target, setTarget] = useState('')
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const parsedDays = parseLimit(days, RETENTION_LIMITS.days, 'Days')
  const parsedMb = parseLimit(maxMb, RETENTION_LIMITS.maxMb, 'MB')
  const problem = typeof parsedDays === 'string' ? parsedDays : typeof parsedMb === 'string' ? parsedMb : null
  const changed = parsedDays !== size.retention.days || parsedMb !== size.retention.maxMb

  const save = async () => {
    if (problem) return
    setBusy(true)
    const settings: RetentionSettings = { days: parsedDays as number | null, maxMb: parsedMb as number | null }
    const saved = await run('Retention', (c) => c.call('history.setRetention', settings))
    setBusy(false)
    if (saved) toast('ok', `Keeping ${saved.days === null ? 'every day' : `${saved.days} days`}, ${saved.maxMb === null ? 'no size limit' : `at most ${saved.maxMb} MB`}`)
    refresh()
  }
  const clear = async () => {
    setBusy(true)
    const result = await run('Clear history', (c) => c.call('history.clear', target ? { endpointId: target } : {}))
    setBusy(false)
    setConfirming(false)
    if (result) {
      const deliveries = result.deliveries > 0 ? `, ${result.deliveries} settled deliver${result.deliveries === 1 ? 'y' : 'ies'}` : ''
      toast('ok', `Cleared ${result.deleted} request${result.deleted === 1 ? '' : 's'}${deliveries} (${formatBytes(result.bytes)})`)
    }
    refresh()
  }
  const targetName = target ? (endpoints.find((e) => e.id === target)?.name ?? 'this endpoint') : 'every endpoint'

  return (
    <div className="card" style={{ position: 'absolute', top: 34, right: 0, zIndex: 30, minWidth: 420 }} data-testid="history-panel">
      <div className="card-body">
        <strong>History</strong>
        <span className="hint" data-testid="store-detail">
          {formatBytes(size.usedBytes)} in use of a {formatBytes(size.fileBytes)} file, WAL {formatBytes(size.walBytes)} · {size.requests} captured request{size.requests === 1 ? '' : 's'}
          {size.oldestAt === null ? '' : `, oldest ${new Date(size.oldestAt).toLocaleString()}`}
        </span>
        {storeWide ? (
          <>
            <strong>Keep history</strong>
            <div className="row" style={{ flexWrap: 'nowrap' }}>
              <label className="hint">
                days{' '}
                <input className="input mono" style={{ width: 80 }} value={days} onChange={(e) => setDays(e.target.value)} placeholder="no limit" aria-label="retention days" data-testid="retention-days" />
              </label>
              <label className="hint">
                at most MB{' '}
                <input className="input mono" style={{ width: 90 }} value={maxMb} onChange={(e) => setMaxMb(e.target.value)} placeholder="no limit" aria-label="retention MB" data-testid="retention-mb" />
              </label>
              <button className="btn small primary" disabled={busy || problem !== null || !changed} onClick={() => void save()} data-testid="retention-save">
                Save
              </button>
            </div>
            {problem && <span className="hint" style={{ color: 'var(--fail)' }}>{problem}</span>}
            <span className="hint">Older or excess history (captured requests, settled deliveries) is pruned every minute, oldest first; empty means no limit of that kind.</span>
          </>
        ) : (
          <span className="hint" data-testid="retention-elsewhere">
            How long history is kept is the whole store&apos;s setting: it is set in the workspace <strong>default</strong>.
          </span>
        )}
        <strong>Clear history</strong>
        <div className="row" style={{ flexWrap: 'nowrap' }}>
          <select className="input" value={target} onChange={(e) => { setTarget(e.target.value); setConfirming(false) }} aria-label="clear which endpoint" data-testid="clear-target">
            <option value="">All endpoints</option>
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name} (/h/{e.slug})
              </option>
            ))}
          </select>
          {!confirming ? (
            <button className="btn small danger" disabled={busy} onClick={() => setConfirming(true)} data-testid="clear-history">
              Clear history
            </button>
          ) : (
            <>
              <button className="btn small danger" disabled={busy} onClick={() => void clear()} data-testid="clear-confirm">
                {busy ? <span className="spinner" /> : null} Delete {target ? `captures of ${targetName}` : 'all history'}
              </button>
              <button className="btn small" disabled={busy} onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          )}
        </div>
        <span className="hint" data-testid="clear-covers">
          {target
            ? "Deletes this endpoint's captured requests; deliveries you sent stay."
            : 'Deletes every captured request and every settled delivery (with its attempts and event); deliveries still pending or retrying stay.'}
        </span>
      </div>
    </div>
  )
}
