// The consumer check of the Checks page: a battery of deliveries to someone's endpoint, and/or a
// provider's verification handshake first (the snapshot's handshake catalog), graded into a report
// card like `hookloop check` prints: ✓ / ! / ✗ / – per check, why it matters, how to fix it.
import { useState } from 'react'
import type { ConsumerCheckResult } from '../../../shared/conformance'
import type { HandshakeKind } from '../../../shared/receiver'
import type { SchemeId } from '../../../shared/signatures'
import { formatDuration } from '../lib/format'
import { run, useApp } from '../state'
import { named, presetChoices, Select, type Choice } from './Select'
import { Card } from './Page'

const SEVERITY_MARK = { pass: '✓', warn: '!', fail: '✗', skip: '–' } as const

/** A card's verdict badge, once there is a verdict. */
export function VerdictBadge(props: { ok: boolean | undefined; yes: string; no: string; testId: string }) {
  if (props.ok === undefined) return null
  return (
    <span className={`badge ${props.ok ? 'ok' : 'bad'}`} data-testid={props.testId} data-ok={props.ok}>
      {props.ok ? props.yes : props.no}
    </span>
  )
}

/** What the result checked, as the CLI's first line says it. */
function checkedWhat(result: ConsumerCheckResult): string {
  return [result.handshake === null ? null : `${result.handshake} handshake`, result.scheme === null ? null : `${result.scheme}, timeout ${result.timeout_ms} ms`].filter((part) => part !== null).join('; ')
}

export function ConsumerCheck() {
  const schemes = useApp((s) => s.snapshot?.schemes ?? [])
  const handshakes = useApp((s) => s.snapshot?.handshakes ?? [])
  const [url, setUrl] = useState('')
  const [scheme, setScheme] = useState<SchemeId | ''>('standard-webhooks')
  const [handshake, setHandshake] = useState<HandshakeKind | ''>('')
  const [secret, setSecret] = useState('')
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ConsumerCheckResult | null>(null)
  const chosen = handshakes.find((h) => h.id === handshake)
  // A secret is needed for the battery, and for a handshake whose request or answer uses one.
  const needsSecret = scheme !== '' || (chosen?.needsSecret ?? false)
  const schemeChoices: Choice<SchemeId | ''>[] = [{ value: '', label: 'none (the handshake only)' }, ...named(schemes)]
  const handshakeChoices: Choice<HandshakeKind | ''>[] = [{ value: '', label: 'none' }, ...presetChoices(handshakes)]
  const start = async () => {
    setBusy(true)
    const out = await run('Consumer check', (c) =>
      c.call('check.consumer', { url: url.trim(), ...(scheme === '' ? {} : { scheme }), ...(handshake === '' ? {} : { handshake }), secret }),
    )
    setBusy(false)
    if (out) setResult(out)
  }
  return (
    <Card title="Consumer check" testId="consumer-check" head={<VerdictBadge ok={result?.ok} yes="passes" no="fails" testId="consumer-verdict" />}>
      <div className="hint">Sends a valid delivery, the same event again, a wrong and a missing signature, a stale timestamp, a malformed body and latency samples, and grades each answer. With a handshake, first makes that provider's verification request and grades the answer.</div>
      <div className="grid2">
        <label className="field">
          Endpoint URL
          <input className="input mono" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3000/webhooks" data-testid="consumer-url" />
        </label>
        <label className="field">
          Scheme
          <Select choices={schemeChoices} value={scheme} onChange={setScheme} testId="consumer-scheme" />
        </label>
      </div>
      <div className="grid2">
        <label className="field">
          Handshake
          <Select choices={handshakeChoices} value={handshake} onChange={setHandshake} testId="consumer-handshake" />
        </label>
        <div className="hint" data-testid="consumer-handshake-answer">
          {chosen ? `${chosen.provider} needs ${chosen.answer}.` : 'No handshake: only the battery of deliveries.'}
        </div>
      </div>
      <label className="field">
        {chosen && scheme === '' ? `Secret (${chosen.answerSecret ?? 'the signing secret'}${chosen.needsSecret ? '' : '; not needed'})` : 'Signing secret (the one the consumer verifies with)'}
        <input className="input mono" type="password" value={secret} onChange={(e) => setSecret(e.target.value)} data-testid="consumer-secret" autoComplete="off" />
      </label>
      <div className="row">
        <button className="btn primary" disabled={busy || url.trim() === '' || (needsSecret && secret === '') || (scheme === '' && handshake === '')} onClick={() => void start()} data-testid="consumer-run">
          {busy ? <span className="spinner" /> : null} Run the check
        </button>
        {busy && <span className="hint">Up to the provider timeout per request…</span>}
      </div>
      {result && (
        <>
          <div className="hint" data-testid="consumer-checked">
            {result.url} · {checkedWhat(result)} · {formatDuration(Math.round(result.wall_ms))}
            {result.latency ? ` · p50 ${result.latency.p50_ms} ms, p95 ${result.latency.p95_ms} ms` : ''}
          </div>
          <ul className="checks-list" data-testid="consumer-checks">
            {result.checks.map((c) => (
              <li key={c.id} data-testid="consumer-check-line" data-check={c.id} data-severity={c.severity}>
                <span className={`mark-cell ${c.severity}`}>{SEVERITY_MARK[c.severity]}</span>
                <span>
                  <strong>{c.title}</strong> — {c.detail}
                  <div className="hint">Why: {c.why}</div>
                  {(c.severity === 'fail' || c.severity === 'warn') && <div className="hint">How to fix: {c.fix}</div>}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  )
}
