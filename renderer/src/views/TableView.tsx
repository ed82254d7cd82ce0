// The same rows as a table with the seed panel's columns (event_id, event_type, status, attempts,
// status_code, last_attempt_at, next_attempt_at), headed in words. Virtualized like the timeline.
import { useMemo } from 'react'
import { rowEventIdTitle, rowEventIds } from '../lib/event-ids'
import { loadMoreRows, togglePicked, useApp } from '../state'
import { COLUMNS } from '../lib/table-columns'
import { formatMoment } from '../state/clock-groups'
import { keysOf } from '../lib/scroll-anchor'
import { RowMarks, StatusBadge } from './badges'
import { NewRowsAbove } from './NewRowsAbove'
import { ROW_HEIGHT, useVirtualRows } from './use-virtual'

export function TableView() {
  const timeline = useApp((s) => s.timeline)
  const rows = timeline.rows
  const selectedKey = useApp((s) => s.selection?.rowKey ?? null)
  const picked = useApp((s) => s.picked)
  const keys = useMemo(() => keysOf(timeline.rows, timeline.index, timeline.read), [timeline])
  const { viewport, onScroll, first, last, totalHeight, above, toTop } = useVirtualRows(rows.length, loadMoreRows, keys)
  const visible = rows.slice(first, last)
  return (
    <div className="vtable" data-testid="table">
      <div className="vt-head">
        {COLUMNS.map((c) => (
          <span key={c.field} title={c.title ? `${c.title} (${c.field})` : c.field} data-field={c.field}>
            {c.words}
          </span>
        ))}
      </div>
      <div className="tl-list">
        <NewRowsAbove count={above} onShow={toTop} />
        <div className="tl-viewport" ref={viewport} onScroll={onScroll} data-testid="table-viewport">
          <div style={{ height: totalHeight, position: 'relative' }}>
            {visible.map((row, offset) => (
              <div
                key={row.key}
                className={`vt-row${row.key === selectedKey ? ' selected' : ''}${picked.has(row.key) ? ' picked' : ''}`}
                style={{ top: (first + offset) * ROW_HEIGHT }}
                onClick={(event) => (event.ctrlKey || event.metaKey ? togglePicked(row.key) : useApp.setState({ selection: { rowKey: row.key } }))}
                data-testid="table-row"
                data-event-id={row.eventId}
                data-picked={picked.has(row.key) || undefined}
              >
                <span className="mono ellipsis row" style={{ flexWrap: 'nowrap' }} title={rowEventIdTitle(row)}>
                  <span className="ellipsis">{rowEventIds(row).shown}</span>
                  <RowMarks row={row} />
                </span>
                <span className="ellipsis">{row.eventType || '—'}</span>
                <span>
                  <StatusBadge status={row.status} />
                </span>
                <span className="mono">{row.attempts}</span>
                <span className="mono">{row.lastStatusCode ?? '—'}</span>
                <span className="mono">{row.lastAt === null ? '—' : formatMoment(row.clock, row.lastAt)}</span>
                <span className="mono">{row.nextAt === null ? '—' : formatMoment(row.clock, row.nextAt)}</span>
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  )
}
