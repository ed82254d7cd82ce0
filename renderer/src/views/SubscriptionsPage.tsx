// Subscriptions: where the sender delivers, as which provider. Metrics, failure rate over 24 h (red above 5 %),
// pause / resume, rotate secret, status filters that open the timeline.
import type { DeliveryStatus, SubscriptionView } from '../../../shared/contract'
import { PROVIDERS } from '../../../shared/providers'
import { run, showOnTimeline, toast, useApp } from '../state'
import { formatPercent } from '../lib/format'
import { COUNT_WORDS, failureRateIsRed, type CountWord } from '../../../shared/contract'
import { NewSubscription } from './NewSubscription'
import { ListPage } from './Page'

export function SubscriptionsPage() {
  const subscriptions = useApp((s) => s.snapshot?.subscriptions ?? [])
  return (
    <ListPage title="Subscriptions" hint="A subscription is where the sender delivers: a URL (or one of your endpoints), a signing scheme and secret, and a retry policy." form={<NewSubscription />} noneYet="No subscriptions yet">
      {subscriptions.map((s) => (
        <SubscriptionCard key={s.id} subscription={s} />
      ))}
    </ListPage>
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
        {s.provider && (
          <span
            className="badge accent"
            data-testid="subscription-provider-badge"
            data-provider={s.provider}
            title={`Delivers as ${PROVIDERS[s.provider].label} does: its headers, body and content type; signed ${s.scheme}, retried under the ${s.policyLabel} policy`}
          >
            as {PROVIDERS[s.provider].label}
            {s.apiVersion && <span data-testid="subscription-api-version-badge"> · API {s.apiVersion}</span>}
          </span>
        )}
        {/* A provider's own policy and scheme go without saying; a changed one is shown. */}
        {(!s.provider || s.policyId !== PROVIDERS[s.provider].policy) && <span className="badge accent">{s.policyLabel}</span>}
        {(!s.provider || s.scheme !== PROVIDERS[s.provider].scheme) && <span className="badge neutral">{s.scheme}</span>}
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
        {s.verifyKey && (
          <div className="row" style={{ gap: 6, flexWrap: 'nowrap' }}>
            <span className="hint" style={{ flex: 'none' }}>
              Your app verifies with
            </span>
            <code className="mono ellipsis" title={s.verifyKey} data-testid="verify-key">
              {s.verifyKey}
            </code>
            <button
              className="btn small"
              onClick={() =>
                navigator.clipboard.writeText(s.verifyKey ?? '').then(
                  () => toast('ok', 'Public key copied: paste it into your app’s settings'),
                  () => toast('error', 'Copy: the browser refused the clipboard; select the key and copy it by hand'),
                )
              }
            >
              Copy
            </button>
          </div>
        )}
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

/** One figure with the words for what it counts (shared/contract/counts.ts); null = not known here (—). */
function Metric({ name, word, value, counting }: { name: string; word: CountWord; value: number | null; counting?: boolean | undefined }) {
  const known = value !== null && !counting
  return (
    <div className="metric" data-metric={name} data-value={known ? value : undefined} title={counting ? `${word.explain} Counting every attempt…` : word.explain}>
      <div className="value">{counting && value !== null ? <span className="spinner" /> : value === null ? '—' : value.toLocaleString()}</div>
      <div className="name">{word.label}</div>
    </div>
  )
}
