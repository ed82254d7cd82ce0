// Forward mode in the inspector: both legs of a captured request side by side — what the sender
// sent us, exactly what went on to your app, what your app answered (or why it did not), and what
// the sender was answered — then each leg in full (headers, bodies, truncation marked), and Resend.
import { useState } from 'react'
import { formatBytes, type ForwardLegView, type RequestDetail, type RowClock } from '../../../shared/contract'
import { decodeBase64 } from '../lib/body'
import { formatDuration } from '../lib/format'
import { formatMoment, formatMomentWithWall } from '../state/clock-groups'
import { Body, Headers } from './InspectorParts'
import { ResendForm } from './ResendForm'

const KIND_WORDS: Record<ForwardLegView['kind'], string> = {
  forward: 'forward',
  'forward-copy': 'copy',
  resend: 'resend',
}

function statusTone(status: number | null): 'ok' | 'final' | 'failed' {
  if (status === null) return 'failed'
  if (status >= 200 && status < 300) return 'ok'
  return status >= 500 ? 'failed' : 'final'
}

const legTone = (leg: ForwardLegView) => (leg.outcome === 'answered' ? statusTone(leg.response.status) : 'failed')

/** The target without its scheme, to fit a tile: 127.0.0.1:3000/webhooks. */
const shortUrl = (url: string) => url.replace(/^https?:\/\//, '')

/**
 * What the sender was answered. Its time is on the request's clock: a simulation's for a request
 * one of our attempts made, where a virtual clock stands still during a request — so that is said,
 * never "in 0 ms" beside the app's real milliseconds.
 */
function senderAnswerWords(clock: RowClock, status: number | null, ms: number | null): string {
  if (status === null) return 'no answer (connection ended)'
  if (ms === null) return String(status)
  if (clock.kind === 'wall') return `${status} in ${formatDuration(ms)}`
  if (clock.mode === 'virtual') return `${status} (simulated: the virtual clock stands still during a request)`
  return `${status} in ${formatDuration(ms)} simulated`
}

/** The forward section of a request's inspector; present for every captured request (Resend). */
export function ForwardLegs({ request, onResent }: { request: RequestDetail; onResent: () => void }) {
  const [chosen, setChosen] = useState<number | null>(null)
  const [resending, setResending] = useState(false)
  const leg = request.legs.find((l) => l.id === chosen) ?? request.legs[request.legs.length - 1]
  // A resend goes out now, on the wall clock; a forward made on arrival is on its request's clock.
  const legClock: RowClock = leg?.kind === 'resend' ? { kind: 'wall' } : request.clock
  return (
    <section className="forward" data-testid="forward-legs" data-legs={request.legs.length}>
      <div className="section-title">
        Forward to your app
        <span style={{ flex: 1 }} />
        <button className="btn small" onClick={() => setResending(!resending)} data-testid="resend-open">
          {resending ? 'Close resend' : '↗ Resend'}
        </button>
      </div>
      {resending && (
        <ResendForm
          request={request}
          onSent={(sent) => {
            setChosen(sent.id)
            setResending(false)
            onResent()
          }}
        />
      )}
      {!leg ? (
        <div className="hint" data-testid="not-forwarded">
          Not forwarded: no rule or forward target sent this request on. Set “Forward to your app” on its endpoint, or Resend it.
        </div>
      ) : (
        <>
          <div className="hops" data-testid="hops">
            <Hop title="Sender → Hookloop" testId="hop-in">
              <div className="mono ellipsis">
                {request.method} {request.path}
              </div>
              <div className="hint" data-testid="hop-in-time" data-clock={request.clock.kind}>
                {request.bodySize} bytes · {formatMomentWithWall(request.clock, request.receivedAt, request.storedAt)}
              </div>
            </Hop>
            <Hop title="Sender was answered" tone={statusTone(request.response.status)} testId="hop-sender">
              <div className="strong" data-testid="sender-answer">
                {senderAnswerWords(request.clock, request.response.status, request.response.ms)}
              </div>
            </Hop>
            <Hop title="Hookloop → your app" testId="hop-out">
              <div className="mono ellipsis" title={leg.request.url}>
                {leg.request.method} {shortUrl(leg.request.url)}
              </div>
              <div className="hint" data-testid="hop-out-time" data-clock={legClock.kind}>
                {KIND_WORDS[leg.kind]} · {formatMoment(legClock, leg.sentAt)}
              </div>
            </Hop>
            <Hop title="Your app answered" tone={legTone(leg)} testId="hop-app">
              <div className="strong" data-testid="leg-summary">
                {leg.summary}
              </div>
              {legClock.kind === 'simulated' && <div className="hint">measured in real time (the app runs on the wall clock)</div>}
            </Hop>
          </div>
          {request.legs.length > 1 && (
            <div className="attempts" role="tablist">
              {request.legs.map((l, i) => (
                <button key={l.id} className={`attempt-chip${l.id === leg.id ? ' active' : ''}`} onClick={() => setChosen(l.id)} data-testid="leg-chip">
                  <i className={`dot ${legTone(l)}`} />#{i + 1} {KIND_WORDS[l.kind]} {l.response.status ?? l.outcome.replace('_', ' ')}
                </button>
              ))}
            </div>
          )}
          <LegDetail leg={leg} clock={legClock} />
        </>
      )}
    </section>
  )
}

function Hop({ title, tone, testId, children }: { title: string; tone?: string; testId: string; children: React.ReactNode }) {
  return (
    <div className={`hop${tone ? ` ${tone}` : ''}`} data-testid={testId}>
      <div className="hop-title">{title}</div>
      {children}
    </div>
  )
}

function LegDetail({ leg, clock }: { leg: ForwardLegView; clock: RowClock }) {
  const sent = decodeBase64(leg.request.bodyBase64)
  const answered = decodeBase64(leg.response.bodyBase64)
  return (
    <div className="leg-columns" data-testid="leg-detail" data-kind={leg.kind} data-outcome={leg.outcome}>
      <div className="leg-column">
        <div className="section-title">Sent to your app</div>
        <dl className="kv">
          <dt>to</dt>
          <dd data-testid="leg-url">{leg.request.url}</dd>
          <dt>sent</dt>
          <dd>{formatMoment(clock, leg.sentAt)}</dd>
        </dl>
        <Headers title="Headers" headers={leg.request.headers} />
        <Body
          title={`Body (${leg.request.bodySize.toLocaleString('en-US')} bytes${sent.length < leg.request.bodySize ? `; the first ${formatBytes(sent.length)} shown` : ''})`}
          bytes={sent}
          testId="leg-request-body"
        />
      </div>
      <div className="leg-column">
        <div className="section-title">Your app’s answer</div>
        <dl className="kv">
          <dt>status</dt>
          <dd data-testid="leg-status">{leg.response.status ?? 'none'}</dd>
          <dt>latency</dt>
          <dd>{leg.latencyMs === null ? '—' : formatDuration(leg.latencyMs)}</dd>
          <dt>outcome</dt>
          <dd>{leg.outcome.replace('_', ' ')}</dd>
          {leg.error && (
            <>
              <dt>error</dt>
              <dd data-testid="leg-error">{leg.error}</dd>
            </>
          )}
        </dl>
        <Headers title="Headers" headers={leg.response.headers} />
        {leg.response.status !== null && (
          <Body
            title={`Body (${leg.response.bodySize} bytes${leg.response.bodyTruncated ? `, stored truncated to ${answered.length}` : ''})`}
            bytes={answered}
            testId="leg-response-body"
          />
        )}
      </div>
    </div>
  )
}
