// The selected delivery, attempt or request: headers, body (pretty / raw / hex), the response,
// the signature verdict explained, the rule and fault applied; Retry now, Replay, Copy as cURL.
import { rowEventIdTitle, rowEventIds } from '../lib/event-ids'
import { Fragment, useEffect, useState } from 'react'
import { formatBytes, requestBodyFileName, type AttemptDetail, type DeliveryDetail, type RequestDetail, type RowClock, type TimelineRow } from '../../../shared/contract'
import { run, toast, useApp } from '../state'
import { formatBothTimes, formatDurationOn, formatMoment, formatMomentWithWall } from '../state/clock-groups'
import { decodeBase64 } from '../lib/body'
import { saveBlob } from '../lib/files'
import { Body, Headers } from './InspectorParts'
import { ForwardLegs } from './ForwardLegs'
import { curlCommand } from '../../../shared/curl'
import { formatDuration } from '../lib/format'
import { DuplicateBadge, SchemaBadgeView, SignatureBadgeView, StatusBadge, TONE_COLOR } from './badges'
import { SchemaVerdictView } from './SchemaVerdictView'

export function Inspector() {
  const selection = useApp((s) => s.selection)
  const row = useApp((s) => {
    const key = s.selection?.rowKey
    const i = key ? s.timeline.index.get(key) : undefined
    return i !== undefined ? s.timeline.rows[i] : undefined
  })
  if (!selection) return null
  return (
    <aside className="inspector" data-testid="inspector" aria-label="inspector">
      {row ? <RowInspector row={row} markId={selection.mark?.id ?? null} /> : <div className="center">This row is not loaded any more.</div>}
    </aside>
  )
}

function RowInspector({ row, markId }: { row: TimelineRow; markId: number | null }) {
  const close = () => useApp.setState({ selection: null })
  const chosen = row.marks.find((m) => m.id === markId) ?? row.marks[row.marks.length - 1]
  return (
    <>
      <div className="inspector-head">
        <div className="row">
          <StatusBadge status={row.status} />
          <SignatureBadgeView signature={row.signature} />
          <SchemaBadgeView schema={row.schema} full />
          <DuplicateBadge count={row.duplicates} />
          <span style={{ flex: 1 }} />
          <button className="btn small" onClick={close} title="Close (Esc)">
            ✕
          </button>
        </div>
        <div className="mono ellipsis" title={rowEventIdTitle(row)} data-testid="inspector-event-id">
          {rowEventIds(row).shown}
        </div>
        {row.consumerEventId ? (
          <div className="hint mono ellipsis" data-testid="inspector-hookloop-id">
            the id your app sees · Hookloop's id {row.eventId}
          </div>
        ) : null}
        <div className="hint">
          {row.eventType || 'no event type'} · {row.attempts} {row.kind === 'delivery' ? 'attempt' : 'request'}
          {row.attempts === 1 ? '' : 's'} · first at {formatMoment(row.clock, row.firstAt)}
        </div>
        <div className="hint" data-testid="inspector-clock">
          {row.clock.kind === 'wall' ? 'Times on the wall clock' : `Times on the simulation's own clock (time since it started); wall time beside where it differs`}
        </div>
        <div className="attempts" role="tablist">
          {row.marks.map((mark) => (
            <button
              key={mark.id}
              className={`attempt-chip${chosen?.id === mark.id ? ' active' : ''}`}
              onClick={() => useApp.setState({ selection: { rowKey: row.key, mark: { kind: mark.kind, id: mark.id } } })}
              data-testid="attempt-chip"
            >
              <i style={{ background: TONE_COLOR[mark.tone] }} />#{mark.n} {mark.label}
            </button>
          ))}
        </div>
      </div>
      {row.kind === 'delivery' && row.deliveryId !== null ? (
        <DeliveryInspector row={row} deliveryId={row.deliveryId} attemptId={chosen?.kind === 'attempt' ? chosen.id : null} />
      ) : chosen ? (
        <RequestPanel requestId={chosen.id} version={`${row.attempts}:${row.lastStatusCode}:${chosen.app?.label ?? ''}`} showActions />
      ) : null}
    </>
  )
}

function DeliveryInspector({ row, deliveryId, attemptId }: { row: TimelineRow; deliveryId: number; attemptId: number | null }) {
  const [detail, setDetail] = useState<DeliveryDetail | null>(null)
  const [error, setError] = useState<string | null>(null)
  const version = `${row.status}:${row.attempts}:${row.lastAt}:${row.nextAt}:${row.marks.map((m) => `${m.label}/${m.app?.label ?? ''}`).join(',')}`
  useEffect(() => {
    let live = true
    const client = useApp.getState().client
    client
      ?.call('delivery.get', { id: deliveryId })
      .then((d) => live && (setDetail(d), setError(null)))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)))
    return () => {
      live = false
    }
  }, [deliveryId, version])
  if (error) return <div className="inspector-body error-text">Could not load the delivery: {error}</div>
  if (!detail) return <div className="center"><span className="spinner" /></div>
  const attempt = detail.attempts.find((a) => a.id === attemptId) ?? detail.attempts[detail.attempts.length - 1]
  const payload = decodeBase64(detail.payloadBase64)
  return (
    <div className="inspector-body">
      <div className="row">
        <button
          className="btn primary"
          data-testid="retry-now"
          disabled={row.status === 'succeeded'}
          onClick={() => void run('Retry now', (c) => c.call('delivery.retryNow', { id: deliveryId })).then((r) => r && toast('ok', 'Retrying now'))}
          title="Retry now (R)"
        >
          ↻ Retry now
        </button>
        <button
          className="btn"
          data-testid="replay"
          onClick={() => void run('Replay', (c) => c.call('delivery.replay', { id: deliveryId })).then((r) => r && toast('ok', `Replayed as a new event (delivery #${r.deliveryId}), signed afresh`))}
        >
          ⟲ Replay as new event
        </button>
        <button
          className="btn"
          data-testid="copy-curl"
          onClick={() =>
            void copy(curlCommand({ method: 'POST', url: detail.subscriptionUrl, headers: attempt?.requestHeaders ?? [], body: payload }), 'cURL command copied')
          }
        >
          Copy as cURL
        </button>
      </div>
      <dl className="kv">
        <dt>delivery</dt>
        <dd>#{detail.id}</dd>
        <dt>event</dt>
        <dd className="mono" title="Hookloop's event id">
          {detail.eventId}
        </dd>
        {detail.providerEventId && (
          <>
            <dt title="The id the consumer knows this event by: what your app logs">provider's id</dt>
            <dd className="mono" data-testid="provider-event-id" data-where={detail.providerEventId.where}>
              {detail.providerEventId.value} <span className="hint">in {detail.providerEventId.where}</span>
            </dd>
          </>
        )}
        <dt>to</dt>
        <dd>{detail.subscriptionUrl}</dd>
        <dt>status</dt>
        <dd>{detail.status}</dd>
        {row.nextAt !== null && (
          <>
            <dt>next attempt</dt>
            <dd>{formatMoment(row.clock, row.nextAt)}</dd>
          </>
        )}
        {detail.faults !== null && detail.faults !== undefined && (
          <>
            <dt>sending faults</dt>
            <dd>{JSON.stringify(detail.faults)}</dd>
          </>
        )}
      </dl>
      {attempt ? <AttemptPanel attempt={attempt} clock={row.clock} wallAt={row.marks.find((m) => m.kind === 'attempt' && m.id === attempt.id)?.wallAt} /> : <div className="hint">No attempt yet: the first one is scheduled.</div>}
      <Body title="Payload sent" bytes={payload} />
      {attempt?.requestId != null && <RequestPanel requestId={attempt.requestId} version={version} showActions={false} />}
    </div>
  )
}

function AttemptPanel({ attempt, clock, wallAt }: { attempt: AttemptDetail; clock: RowClock; wallAt: number | undefined }) {
  return (
    <section>
      <div className="section-title">Attempt #{attempt.n}</div>
      <dl className="kv">
        <dt>started</dt>
        <dd data-testid="attempt-started">{formatBothTimes(clock, attempt.startedAt, wallAt)}</dd>
        <dt>outcome</dt>
        <dd data-testid="attempt-outcome">{attempt.outcome}</dd>
        <dt>duration</dt>
        <dd data-testid="attempt-duration">{formatDurationOn(clock, attempt.durationMs)}</dd>
        <dt>decision</dt>
        <dd>{attempt.decision === 'retry' && attempt.nextAttemptAt ? `retry at ${formatMoment(clock, attempt.nextAttemptAt)}` : attempt.decision}</dd>
        {attempt.error && (
          <>
            <dt>error</dt>
            <dd>{attempt.error}</dd>
          </>
        )}
        {attempt.fault != null && (
          <>
            <dt>fault (sender)</dt>
            <dd>{JSON.stringify(attempt.fault)}</dd>
          </>
        )}
      </dl>
      <Headers title="Request headers" headers={attempt.requestHeaders} />
      <Headers title="Response headers" headers={attempt.responseHeaders} />
      {attempt.responseBodyBase64 && <Body title="Response body" bytes={decodeBase64(attempt.responseBodyBase64)} />}
    </section>
  )
}

function RequestPanel({ requestId, version, showActions }: { requestId: number; version: string; showActions: boolean }) {
  const [request, setRequest] = useState<RequestDetail | null>(null)
  const [error, setError] = useState<string | null>(null)
  const receiverUrl = useApp((s) => s.snapshot?.receiverUrl ?? '')
  // Bumped after a resend: the new leg is read back with the request.
  const [reload, setReload] = useState(0)
  useEffect(() => {
    let live = true
    useApp
      .getState()
      .client?.call('request.get', { id: requestId })
      .then((r) => live && (setRequest(r), setError(null)))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)))
    return () => {
      live = false
    }
  }, [requestId, version, reload])
  if (error) return <div className="inspector-body error-text">Could not load the request: {error}</div>
  if (!request) return <div className="center"><span className="spinner" /></div>
  const body = decodeBase64(request.bodyBase64)
  const url = `${receiverUrl}${request.path}${request.query ? `?${request.query}` : ''}`
  const content = (
    <>
      {showActions && (
        <div className="row">
          <button
            className="btn"
            data-testid="copy-curl"
            disabled={body.length < request.bodyStoredBytes}
            title={body.length < request.bodyStoredBytes ? 'The body is too big to paste: download it, and send it with curl --data-binary @file' : undefined}
            onClick={() => void copy(curlCommand({ method: request.method, url, headers: request.headers, body }), 'cURL command copied')}
          >
            Copy as cURL
          </button>
        </div>
      )}
      <ForwardLegs request={request} onResent={() => setReload((n) => n + 1)} />
      <section>
        <div className="section-title">Received by our endpoint</div>
        <dl className="kv">
          <dt>request</dt>
          <dd>
            #{request.id} {request.method} {request.path}
            {request.query ? `?${request.query}` : ''}
          </dd>
          <dt>received</dt>
          <dd data-testid="request-received" data-clock={request.clock.kind}>{formatMomentWithWall(request.clock, request.receivedAt, request.storedAt)}</dd>
          <dt>from</dt>
          <dd>{request.remoteAddress ?? '—'}</dd>
          <dt>dedupe key</dt>
          <dd data-testid="request-dedupe-key">
            {request.dedupeKey ?? '—'}
            {request.dedupeKeyFrom ? <span className="hint"> ({request.dedupeKeyFrom})</span> : null}
          </dd>
          {request.marks?.map((mark) => (
            <Fragment key={mark}>
              <dt>marked</dt>
              <dd data-testid="request-mark">{mark}</dd>
            </Fragment>
          ))}
          <dt>arrival</dt>
          <dd data-testid="duplicate-number">
            {request.duplicateNumber && request.duplicateNumber > 1
              ? `duplicate arrival #${request.duplicateNumber} of this dedupe key${request.duplicateOf === null ? ' (its first arrival was pruned)' : `, first: request #${request.duplicateOf}`}`
              : 'first arrival'}
          </dd>
        </dl>
      </section>
      <Verdict request={request} />
      <SchemaVerdictView verdict={request.schema} />
      <section data-testid="fault">
        <div className="section-title">Rule and fault applied</div>
        {request.fault ? (
          <div className="sentence">
            {request.fault.ruleExplain && (
              <div>
                Rule: <strong>{request.fault.ruleExplain}</strong>
              </div>
            )}
            <div>Fault: {request.fault.summary}</div>
          </div>
        ) : (
          <div className="hint">No rule matched: the default answer was given.</div>
        )}
      </section>
      {request.hold && <HeldSection hold={request.hold} />}
      <Headers title={request.hold?.record.edit ? 'Headers (as received)' : 'Headers'} headers={request.headers} />
      <RequestBody request={request} start={body} />
      <section>
        <div className="section-title">Our response</div>
        <dl className="kv">
          <dt>status</dt>
          <dd data-testid="response-status">{request.response.status ?? 'none (connection ended)'}</dd>
          <dt>time</dt>
          <dd>{request.response.ms !== null ? formatDuration(request.response.ms) : '—'}</dd>
        </dl>
        <Headers title="" headers={request.response.headers} />
      </section>
    </>
  )
  return showActions ? <div className="inspector-body">{content}</div> : content
}

/** The body as stored: a big one shows its start (the command's answer carries no more) and downloads whole. */
function RequestBody({ request, start }: { request: RequestDetail; start: Uint8Array }) {
  const [busy, setBusy] = useState(false)
  const partial = start.length < request.bodyStoredBytes
  const download = async () => {
    const client = useApp.getState().client
    if (!client) return
    setBusy(true)
    try {
      saveBlob(requestBodyFileName(request.id), await client.downloadRequestBody(request.id))
    } catch (e) {
      toast('error', `Could not download the body: ${e instanceof Error ? e.message : String(e)}`)
    } finally {
      setBusy(false)
    }
  }
  const size = `${request.bodySize.toLocaleString('en-US')} bytes${request.bodySize >= 1000 ? `, ${formatBytes(request.bodySize)}` : ''}`
  const stored = request.bodyTruncated ? `; ${formatBytes(request.bodyStoredBytes)} stored (truncated)` : ''
  return (
    <>
      <Body title={`Body (${size}${stored})`} bytes={start} />
      <div className="row" data-testid="body-size" data-bytes={request.bodySize}>
        {partial && (
          <span className="hint" data-testid="body-partial">
            Showing the first {formatBytes(start.length)} of {formatBytes(request.bodyStoredBytes)}: download it to see all of it.
          </span>
        )}
        {request.bodyStoredBytes > 0 && (
          <button className="btn small" disabled={busy} onClick={() => void download()} data-testid="body-download">
            {busy ? 'Downloading…' : 'Download the whole body'}
          </button>
        )}
      </div>
    </>
  )
}

function Verdict({ request }: { request: RequestDetail }) {
  const v = request.verify
  if (v.state === 'none') {
    return (
      <section className="verdict" data-testid="verdict" data-state="none">
        <div className="headline">Signature not verified</div>
        <div className="hint">This endpoint has no verify scheme. Pick one under Endpoints to check every request.</div>
      </section>
    )
  }
  return (
    <section className={`verdict ${v.state}`} data-testid="verdict" data-state={v.state} data-reason={v.reason}>
      <div className="headline">
        {v.state === 'valid' ? '✓ Signature valid' : '✗ Signature invalid'} {v.scheme ? `(${v.scheme})` : ''}
      </div>
      {v.reason && v.state === 'invalid' && (
        <div>
          Reason: <code>{v.reason}</code>
        </div>
      )}
      {v.detail && <div data-testid="verdict-detail">{v.detail}</div>}
      {(v.expected || v.received) && (
        <dl className="kv">
          <dt>expected</dt>
          <dd>{v.expected ?? '—'}</dd>
          <dt>received</dt>
          <dd>{v.received ?? '—'}</dd>
        </dl>
      )}
    </section>
  )
}

export async function copy(text: string, done: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    toast('ok', done)
  } catch {
    // Clipboard access can be refused (an unfocused page): show the text to copy by hand.
    window.prompt('Copy this:', text)
  }
}

/** What a breakpoint did: how long the request was held, how it ended, and the edit beside the original below. */
function HeldSection({ hold }: { hold: NonNullable<RequestDetail['hold']> }) {
  const edit = hold.record.edit
  return (
    <section data-testid="hold">
      <div className="section-title">Held at a breakpoint</div>
      <div className="sentence" data-testid="hold-summary">
        {hold.summary}
      </div>
      {edit && (
        <>
          {edit.status !== null && <div className="hint">answer status changed to {edit.status}</div>}
          <Headers title="Headers (as released)" headers={edit.headers.map(([name, value]) => ({ name, value }))} />
          {edit.body !== null && (
            <>
              <div className="section-title">Body (as released)</div>
              <pre className="mono" data-testid="hold-edited-body">
                {edit.body}
              </pre>
            </>
          )}
        </>
      )}
    </section>
  )
}
