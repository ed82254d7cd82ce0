// Subscriptions: where the sender delivers. Metrics, failure rate over 24 h (red above 5 %),
// pause / resume, rotate secret, status filters that open the timeline.
import { useState } from 'react'
import type { DeliveryStatus, SubscriptionView } from '../../../shared/contract'
import { run, showOnTimeline, toast, useApp } from '../state/app-store'
import { formatPercent } from '../lib/format'
import type { PolicyPresetId } from '../../../shared/policy-presets'
import { named, presetChoices, Select } from './Select'
import type { SchemeId } from '../../../shared/signatures'

export const FAILURE_RATE_RED = 0.05

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
  const red = s.metrics.failureRate24h > FAILURE_RATE_RED
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
          title={`Failed deliveries over the last 24 h; red above ${formatPercent(FAILURE_RATE_RED)}`}
          data-testid="failure-rate"
          data-red={red}
        >
          {formatPercent(s.metrics.failureRate24h)} failed / 24 h
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
          <Metric name="deliveries" value={s.metrics.deliveries} />
          <Metric name="attempts" value={s.metrics.attempts} />
          <Metric name="successes" value={s.metrics.successes} counting={s.metrics.counting} />
          <Metric name="failures" value={s.metrics.failures} counting={s.metrics.counting} />
          <Metric name="duplicates" value={s.metrics.duplicates} counting={s.metrics.counting} />
        </div>
        <div className="row">
          <span className="hint">Show deliveries:</span>
          <button className="btn small" onClick={() => show()}>
            all
          </button>
          {(['succeeded', 'retrying', 'failed'] as const).map((status) => (
            <button key={status} className="btn small" onClick={() => show(status)}>
              {status}
            </button>
          ))}
        </div>
      </div>
    </div>
  )
}

function Metric({ name, value, counting }: { name: string; value: number; counting?: boolean }) {
  return (
    <div className="metric" data-metric={name} title={counting ? 'counting every attempt…' : undefined}>
      <div className="value">{counting ? <span className="spinner" /> : value.toLocaleString()}</div>
      <div className="name">{name}</div>
    </div>
  )
}
