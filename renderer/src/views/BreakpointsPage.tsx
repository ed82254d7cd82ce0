// Breakpoints: the requests held right now (each with its whole content, a countdown to its limit,
// and what a person can do: edit and release, answer by hand, drop), the breakpoints that hold
// them, and how long each provider waits before it gives up (docs/breakpoints.md). Held requests
// arrive by the breakpoint.held event, so they show in the frame they arrive in; the banner
// (HeldBanner) says so on every view.
import { useEffect, useState } from 'react'
import type { BreakpointInput, HeldRequest, HoldEdit, Matcher } from '../../../shared/receiver'
import { run, toast, useApp } from '../state'
import { endpointChoices, Select, type Choice } from './Select'
import { Card, EmptyCard, Page } from './Page'

/** The wall clock, read again four times a second while a countdown is on screen. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [])
  return now
}

export function HeldBanner() {
  const held = useApp((s) => s.snapshot?.breakpoints.held.length ?? 0)
  const view = useApp((s) => s.view)
  if (held === 0 || view === 'breakpoints') return null
  return (
    <div className="banner" data-testid="held-banner">
      ⏸ {held} request{held === 1 ? '' : 's'} held at a breakpoint{' '}
      <button className="btn small" onClick={() => useApp.setState({ view: 'breakpoints' })} data-testid="held-banner-open">
        Open
      </button>
    </div>
  )
}

export function BreakpointsPage() {
  const held = useApp((s) => s.snapshot?.breakpoints.held ?? [])
  return (
    <Page title="Breakpoints" hint="Stop a matching request before Hookloop answers it; look at it, change it, then let it go, answer it yourself, or drop it.">
      {held.length === 0 ? (
        <EmptyCard title="Nothing is held">
          <div>A request that matches a breakpoint below shows here the moment it arrives.</div>
        </EmptyCard>
      ) : (
        held.map((h) => <HeldCard key={`${h.requestId}-${h.phase}`} held={h} />)
      )}
      <NewBreakpoint />
      <BreakpointList />
      <ProviderWaits />
    </Page>
  )
}

const headerText = (headers: readonly [string, string][]) => headers.map(([n, v]) => `${n}: ${v}`).join('\n')
function parseHeaders(text: string): [string, string][] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line): [string, string] => {
      const colon = line.indexOf(':')
      return colon === -1 ? [line.trim(), ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
    })
}

/** What changed between the held request and the form: only that is sent. */
function editOf(held: HeldRequest, headers: string, body: string, status: string, resign: boolean): HoldEdit {
  const edit: HoldEdit = {}
  if (headers !== headerText(held.headers)) {
    const given = parseHeaders(headers)
    const names = new Set(given.map(([n]) => n.toLowerCase()))
    edit.headers = given
    edit.removeHeaders = [...new Set(held.headers.map(([n]) => n).filter((n) => !names.has(n.toLowerCase())))]
  }
  if (body !== held.body) edit.body = body
  if (status.trim() !== '') edit.status = Number(status)
  if (resign) edit.resign = true
  return edit
}

function HeldCard({ held }: { held: HeldRequest }) {
  const now = useNow()
  const [headers, setHeaders] = useState(() => headerText(held.headers))
  const [body, setBody] = useState(held.body)
  const [status, setStatus] = useState('')
  const [resign, setResign] = useState(held.canResign)
  const [answerStatus, setAnswerStatus] = useState('200')
  const [answerBody, setAnswerBody] = useState('')
  const left = Math.max(0, Math.ceil((held.expiresAt - now) / 1000))
  const then = held.onExpiry.action === 'release' ? 'released as it came' : `answered ${held.onExpiry.status}`
  const id = held.requestId
  const release = (edit?: HoldEdit) => void run('Release', (c) => c.call('held.release', { requestId: id, ...(edit ? { edit } : {}) }))
  const edited = editOf(held, headers, body, status, resign && body !== held.body)
  return (
    <Card
      title={`#${id} ${held.method} ${held.path}${held.query ? `?${held.query}` : ''}${held.phase === 'answer' ? ` — your app's answer ${held.status ?? ''}` : ''}`}
      testId="held-request"
      head={
        <span className="badge warn" data-testid="held-countdown" title={`At its limit the request is ${then}`}>
          {then} in {left} s
        </span>
      }
    >
      <div className="hint">
        {held.phase === 'answer' ? "Your app answered; the sender gets this answer (edited, if you edit it) once released." : `Its rules would ${held.plan}.`} {held.endpointSlug ? `Endpoint /h/${held.endpointSlug}.` : ''}
      </div>
      <label className="field">
        Headers
        <textarea className="input mono" rows={Math.min(10, held.headers.length + 1)} value={headers} onChange={(e) => setHeaders(e.target.value)} spellCheck={false} data-testid="held-headers" />
      </label>
      <label className="field">
        Body ({held.bodySize} bytes)
        <textarea className="input mono" rows={6} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} data-testid="held-body" />
      </label>
      <div className="row">
        <label className="field">
          {held.phase === 'answer' ? 'Status' : 'Answer status (a plain reply only)'}
          <input className="input" inputMode="numeric" placeholder="as planned" value={status} onChange={(e) => setStatus(e.target.value)} data-testid="held-status" />
        </label>
        {held.canResign && (
          <label className="row" title="Sign the edited body again with the endpoint's scheme and secret, so its consumer accepts it">
            <input type="checkbox" checked={resign} onChange={(e) => setResign(e.target.checked)} data-testid="held-resign" /> Re-sign after an edit
          </label>
        )}
      </div>
      <div className="row">
        <button className="btn primary small" onClick={() => release(edited)} data-testid="held-release">
          {Object.keys(edited).length === 0 ? 'Release' : 'Release edited'}
        </button>
        <button className="btn small" onClick={() => release()} data-testid="held-release-as-is">
          Release as it came
        </button>
        <button className="btn small danger" onClick={() => void run('Drop', (c) => c.call('held.drop', { requestId: id }))} data-testid="held-drop">
          Drop
        </button>
      </div>
      <div className="row">
        <input className="input" style={{ width: '5em' }} inputMode="numeric" value={answerStatus} onChange={(e) => setAnswerStatus(e.target.value)} aria-label="status to answer" data-testid="held-answer-status" />
        <input className="input mono" placeholder="answer body" value={answerBody} onChange={(e) => setAnswerBody(e.target.value)} aria-label="body to answer" data-testid="held-answer-body" />
        <button className="btn small" onClick={() => void run('Answer', (c) => c.call('held.answer', { requestId: id, answer: { status: Number(answerStatus), ...(answerBody ? { body: answerBody } : {}) } }))} data-testid="held-answer">
          Answer by hand
        </button>
      </div>
    </Card>
  )
}

type Expiry = 'release' | 'answer'
const EXPIRIES: Choice<Expiry>[] = [
  { value: 'release', label: 'release it as it came' },
  { value: 'answer', label: 'answer with a status' },
]

function NewBreakpoint() {
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const [endpointId, setEndpointId] = useState('')
  const [method, setMethod] = useState('POST')
  const [path, setPath] = useState('')
  const [header, setHeader] = useState('')
  const [jsonPath, setJsonPath] = useState('')
  const [jsonValue, setJsonValue] = useState('')
  const [limitS, setLimitS] = useState('')
  const [expiry, setExpiry] = useState<Expiry>('release')
  const [expiryStatus, setExpiryStatus] = useState('503')
  const [holdAnswer, setHoldAnswer] = useState(false)
  const add = async () => {
    const matchers: Matcher[] = []
    if (method.trim()) matchers.push({ type: 'method', method: method.trim() })
    if (path.trim()) matchers.push({ type: 'path', path: path.trim(), prefix: true })
    if (header.trim()) {
      const [name = '', ...value] = header.split('=')
      matchers.push({ type: 'header', name: name.trim(), ...(value.length ? { value: value.join('=').trim() } : {}) })
    }
    if (jsonPath.trim()) matchers.push({ type: 'event-type', path: jsonPath.trim(), value: jsonValue })
    const breakpoint: BreakpointInput = {
      ...(endpointId ? { endpointId } : {}),
      matchers,
      ...(limitS.trim() ? { limitMs: Math.round(Number(limitS) * 1000) } : {}),
      onExpiry: expiry === 'release' ? { action: 'release' } : { action: 'answer', status: Number(expiryStatus) },
      ...(holdAnswer ? { holdAnswer: true } : {}),
    }
    const made = await run('Add breakpoint', (c) => c.call('breakpoint.put', { breakpoint }))
    if (made) toast('ok', made.explain)
  }
  const choices: Choice<string>[] = [{ value: '', label: 'any endpoint' }, ...endpointChoices(endpoints)]
  return (
    <Card title="New breakpoint" testId="new-breakpoint">
      <div className="grid2">
        <label className="field">
          Endpoint
          <Select choices={choices} value={endpointId} onChange={setEndpointId} testId="bp-endpoint" />
        </label>
        <label className="field">
          Method
          <input className="input" value={method} onChange={(e) => setMethod(e.target.value)} data-testid="bp-method" />
        </label>
        <label className="field">
          Path (and under it)
          <input className="input mono" placeholder="/h/pay" value={path} onChange={(e) => setPath(e.target.value)} data-testid="bp-path" />
        </label>
        <label className="field">
          Header (name, or name=value)
          <input className="input mono" value={header} onChange={(e) => setHeader(e.target.value)} data-testid="bp-header" />
        </label>
        <label className="field">
          JSON path in the body
          <input className="input mono" placeholder="type" value={jsonPath} onChange={(e) => setJsonPath(e.target.value)} data-testid="bp-json-path" />
        </label>
        <label className="field">
          … equal to
          <input className="input mono" placeholder="invoice.paid" value={jsonValue} onChange={(e) => setJsonValue(e.target.value)} data-testid="bp-json-value" />
        </label>
        <label className="field" title="Blank: 1 s below the wait of the provider whose scheme the endpoint verifies (4 s without one)">
          Hold at most (s)
          <input className="input" inputMode="decimal" placeholder="below the provider's wait" value={limitS} onChange={(e) => setLimitS(e.target.value)} data-testid="bp-limit" />
        </label>
        <label className="field">
          Then
          <div className="row">
            <Select choices={EXPIRIES} value={expiry} onChange={setExpiry} testId="bp-expiry" />
            {expiry === 'answer' && <input className="input" style={{ width: '5em' }} value={expiryStatus} onChange={(e) => setExpiryStatus(e.target.value)} aria-label="status at the limit" data-testid="bp-expiry-status" />}
          </div>
        </label>
      </div>
      <label className="row" title="Forward mode: your app's answer stops too, before it goes back to the sender">
        <input type="checkbox" checked={holdAnswer} onChange={(e) => setHoldAnswer(e.target.checked)} data-testid="bp-hold-answer" /> Also hold your app's answer on its way back
      </label>
      <button className="btn primary small" onClick={() => void add()} data-testid="bp-add">
        Add breakpoint
      </button>
    </Card>
  )
}

function BreakpointList() {
  const breakpoints = useApp((s) => s.snapshot?.breakpoints.breakpoints ?? [])
  if (breakpoints.length === 0) return null
  return (
    <Card title="Breakpoints" testId="breakpoint-list">
      {breakpoints.map((b) => (
        <div key={b.id} className="row" data-testid="breakpoint">
          <span style={{ flex: 1 }}>{b.explain}</span>
          <button className="btn small" onClick={() => void run('Remove breakpoint', (c) => c.call('breakpoint.remove', { id: b.id }))} data-testid="breakpoint-remove">
            Remove
          </button>
        </div>
      ))}
    </Card>
  )
}

function ProviderWaits() {
  const waits = useApp((s) => s.snapshot?.breakpoints.waits ?? [])
  return (
    <Card title="How long each provider waits" testId="provider-waits">
      <div className="hint">A request held past its provider's wait has timed out there: the provider records a failure and retries. A breakpoint's limit starts 1 s below it.</div>
      <table className="table">
        <tbody>
          {waits.map((w) => (
            <tr key={w.id}>
              <td>{w.label}</td>
              <td>{w.waitMs / 1000} s</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}
