// The same rows as a table with the seed panel's columns (event_id, event_type, status, attempts,
// status_code, last_attempt_at, next_attempt_at), headed in words. Virtualized like the timeline.
import { loadMoreRows, togglePicked, useApp } from '../state'
import { COLUMNS } from '../lib/table-columns'
import { formatMoment } from '../state/clock-groups'
import { RowMarks, StatusBadge } from './badges'
import { ROW_HEIGHT, useVirtualRows } from './use-virtual'

export function TableView() {
  const rows = useApp((s) => s.timeline.rows)
  const selectedKey = useApp((s) => s.selection?.rowKey ?? null)
  const picked = useApp((s) => s.picked)
  const { viewport, onScroll, first, last, totalHeight } = useVirtualRows(rows.length, loadMoreRows)
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
      <div className="tl-viewport" ref={viewport} onScroll={onScroll}>
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
              <span className="mono ellipsis row" style={{ flexWrap: 'nowrap' }} title={row.eventId}>
                <span className="ellipsis">{row.eventId}</span>
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
  )
}
