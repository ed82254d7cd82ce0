// Subscriptions: where the sender delivers. Metrics, failure rate over 24 h (red above 5 %),
// pause / resume, rotate secret, status filters that open the timeline.
import { useState } from 'react'
import type { DeliveryStatus, SubscriptionView } from '../../../shared/contract'
import { run, showOnTimeline, toast, useApp } from '../state/app-store'
import { formatPercent } from '../lib/format'
import { COUNT_WORDS, failureRateIsRed, type CountWord } from '../../../shared/counts'
import type { PolicyPresetId } from '../../../shared/policy-presets'
import { named, presetChoices, Select } from './Select'
import type { SchemeId } from '../../../shared/signatures'

export function SubscriptionsPage() {
  const subscriptions = useApp((s) => s.snapshot?.subscriptions ?? [])
  return (
    <div className="scroll">
      <div className="page">
        <div>
          <h2>Subscriptions</h2>
          <div className="hint">A subscription is where the sender delivers: a URL (or one of your endpoints), a signing scheme and secret, and a retry policy.</div>
        </div>
        <NewSubscription />
        {subscriptions.length === 0 && (
          <div className="card">
            <div className="empty">
              <h2>No subscriptions yet</h2>
              <div>Create one above, or use “Try the loop” on the timeline.</div>
            </div>
          </div>
        )}
        {subscriptions.map((s) => (
          <SubscriptionCard key={s.id} subscription={s} />
        ))}
      </div>
    </div>
  )
}

function NewSubscription() {
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const presets = useApp((s) => s.snapshot?.policyPresets ?? [])
  const schemes = useApp((s) => s.snapshot?.schemes ?? [])
  const [name, setName] = useState('')
  const [target, setTarget] = useState('')
  const [url, setUrl] = useState('')
  const [scheme, setScheme] = useState<SchemeId>('standard-webhooks')
  const [policyId, setPolicyId] = useState<PolicyPresetId>('pandoktorek')
  const [envelope, setEnvelope] = useState<SubscriptionView['envelope']>('event')
  const create = async () => {
    const created = await run('Create subscription', (c) =>
      c.call('subscription.create', {
        name: name.trim(),
        target: target === 'url' ? { url: url.trim() } : { endpointId: target || (endpoints[0]?.id ?? '') },
        scheme,
        policyId,
        envelope,
      }),
    )
    if (created) {
      toast('ok', `Subscription ${created.name} delivers to ${created.url}`)
      setName('')
    }
  }
  return (
    <div className="card" data-testid="new-subscription">
      <div className="card-head">
        <h3>New subscription</h3>
      </div>
      <div className="card-body">
        <div className="grid2">
          <label className="field">
            Name
            <input className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="clinic webhooks" data-testid="subscription-name" />
          </label>
          <label className="field">
            Deliver to
            <select className="input" value={target} onChange={(e) => setTarget(e.target.value)}>
              {endpoints.map((e) => (
                <option key={e.id} value={e.id}>
                  our endpoint {e.name} (loop)
                </option>
              ))}
              <option value="url">a URL…</option>
            </select>
          </label>
          {(target === 'url' || endpoints.length === 0) && (
            <label className="field">
              URL
              <input className="input mono" value={url} onChange={(e) => (setUrl(e.target.value), setTarget('url'))} placeholder="https://example.test/webhooks" />
            </label>
          )}
          <label className="field">
            Signing scheme
            <Select choices={named(schemes.filter((s) => s !== 'custom'))} value={scheme} onChange={setScheme} />
          </label>
          <label className="field">
            Retry policy
            <Select choices={presetChoices(presets)} value={policyId} onChange={setPolicyId} />
          </label>
          <label className="field">
            Body
            <select className="input" value={envelope} onChange={(e) => setEnvelope(e.target.value === 'payload' ? 'payload' : 'event')} data-testid="subscription-envelope">
              <option value="event" title="{event_id, event_type, payload}">Hookloop envelope</option>
              <option value="payload" title="The payload is the whole body; the event id travels in the event-id header">payload as the body</option>
            </select>
          </label>
        </div>
        <div className="row">
          <button className="btn primary" disabled={name.trim() === ''} onClick={() => void create()} data-testid="create-subscription">
            Create subscription
          </button>
        </div>
      </div>
    </div>
  )
}

function SubscriptionCard({ subscription: s }: { subscription: SubscriptionView }) {
  const m = s.metrics
  const red = failureRateIsRed(m.failureRate24h)
  const show = (status?: DeliveryStatus) => {
    void showOnTimeline({ subscriptionId: s.id, status: status ? [status] : undefined })
  }
  return (
    <div className="card" data-testid="subscription-card" data-subscription={s.id} data-paused={s.paused}>
      <div className="card-head">
        <h3>{s.name}</h3>
        {s.paused && <span className="badge warn" data-testid="paused-badge">paused</span>}
        <span className="badge accent">{s.policyLabel}</span>
        <span className="badge neutral">{s.scheme}</span>
        <span
          className={`badge ${red ? 'bad' : 'ok'}`}
          title={`${m.failed24h} of ${m.deliveries24h} deliveries created in the last 24 h failed. ${COUNT_WORDS.failureRate24h.explain}`}
          data-testid="failure-rate"
          data-red={red}
          data-failed={m.failed24h}
          data-deliveries={m.deliveries24h}
        >
          {formatPercent(m.failureRate24h)} {COUNT_WORDS.failureRate24h.label}
        </span>
        <span style={{ flex: 1 }} />
        <button
          className="btn small"
          onClick={() => void run(s.paused ? 'Resume' : 'Pause', (c) => c.call('subscription.setPaused', { id: s.id, paused: !s.paused }))}
          data-testid="pause-toggle"
          title={s.paused ? 'New deliveries go out again' : 'New deliveries wait; active ones go on'}
        >
          {s.paused ? '▶ Resume' : '❚❚ Pause'}
        </button>
        <button
          className="btn small"
          data-testid="rotate-secret"
          onClick={() => {
            if (!window.confirm('Rotate the secret? The old one stops being used at once (0 s grace).')) return
            void run('Rotate secret', (c) => c.call('subscription.rotateSecret', { id: s.id })).then((r) => r && toast('ok', `New secret ${r.secretHint}; the old one is no longer used`))
          }}
        >
          ⟳ Rotate secret
        </button>
      </div>
      <div className="card-body">
        <div className="mono ellipsis">{s.url}</div>
        <div className="hint" data-testid="secret-hint">
          Secret: {s.secretHints[0] ?? '—'}
        </div>
        <div className="metrics" data-testid="metrics">
          <Metric name="deliveries" word={COUNT_WORDS.deliveries} value={m.deliveries} />
          <Metric name="attempts" word={COUNT_WORDS.attempts} value={m.attempts} />
          <Metric name="successes" word={COUNT_WORDS.successes} value={m.successes} counting={m.counting} />
          <Metric name="failures" word={COUNT_WORDS.failures} value={m.failures} counting={m.counting} />
          <Metric name="duplicates" word={m.duplicates === null ? COUNT_WORDS.duplicatesOutside : COUNT_WORDS.duplicates} value={m.duplicates} counting={m.counting} />
        </div>
        <div className="row">
          <span className="hint">Show deliveries:</span>
          <button className="btn small" onClick={() => show()} data-testid="show-deliveries" data-status="all" data-count={m.deliveries}>
            all {m.deliveries.toLocaleString()}
          </button>
          {(['pending', 'retrying', 'succeeded', 'failed'] as const).map((status) => (
            <button key={status} className="btn small" onClick={() => show(status)} data-testid="show-deliveries" data-status={status} data-count={m.byStatus[status]} title={`${status} deliveries of this subscription`}>
              {status} {m.byStatus[status].toLocaleString()}
            </button>
          ))}
        </div>
      </div>
    </div>
  )
}

/** One figure with the words for what it counts (shared/counts.ts); null = not known here (—). */
function Metric({ name, word, value, counting }: { name: string; word: CountWord; value: number | null; counting?: boolean | undefined }) {
  const known = value !== null && !counting
  return (
    <div className="metric" data-metric={name} data-value={known ? value : undefined} title={counting ? `${word.explain} Counting every attempt…` : word.explain}>
      <div className="value">{counting && value !== null ? <span className="spinner" /> : value === null ? '—' : value.toLocaleString()}</div>
      <div className="name">{word.label}</div>
    </div>
  )
}
