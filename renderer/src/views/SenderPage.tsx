// Compose an event, pick a subscription, send one or many, add sending-side faults; the chosen
// subscription's policy is previewed as its expected schedule. A provider's subscription sends that
// provider's catalog events (ProviderEventFields); any other, the event type and payload typed here,
// or picked from the provider catalog or, for one delivering to a contract endpoint, its spec.
import { useState } from 'react'
import { PROVIDERS, type ProviderId } from '../../../shared/providers'
import { SEND_FAULT_TYPES, type SendFaultType } from '../../../shared/sender'
import { run, showOnTimeline, toast, useApp, useStoreWide } from '../state'
import { ScheduleChart } from './ScheduleChart'
import { CatalogPicker } from './CatalogPicker'
import { Select } from './Select'
import { Card, EmptyCard, Page } from './Page'
import { catalogComposer, ProviderEventFields, type ProviderComposer } from './ProviderEventFields'
import { ContractEventPicker } from './ContractEventPicker'
import { contractChoicesFor } from '../lib/contract-events'

const FAULT_LABEL: Record<SendFaultType, string> = {
  duplicate: 'Send twice (duplicate)',
  'wrong-secret': 'Wrong secret',
  'rotated-secret': 'Rotated-out secret',
  'stale-timestamp': 'Stale timestamp',
  'future-timestamp': 'Future timestamp',
  'corrupt-signature': 'Corrupt signature',
  drop: 'Drop (a lost webhook)',
  'out-of-order': 'Out of order',
}

const SAMPLE = JSON.stringify({ booking_id: 'b_1042', clinic_id: 'c_7', starts_at: '2026-12-01T09:30:00Z', status: 'confirmed' }, null, 2)

export function SenderPage() {
  const subscriptions = useApp((s) => s.snapshot?.subscriptions ?? [])
  const storeWide = useStoreWide()
  const presets = useApp((s) => s.snapshot?.policyPresets ?? [])
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const [subscriptionId, setSubscriptionId] = useState('')
  const [eventType, setEventType] = useState('booking.created')
  const [payload, setPayload] = useState(SAMPLE)
  const [count, setCount] = useState(1)
  const [faults, setFaults] = useState<SendFaultType[]>([])
  const [busy, setBusy] = useState(false)
  const [composer, setComposer] = useState<{ provider: ProviderId; value: ProviderComposer } | null>(null)
  const chosen = subscriptions.find((s) => s.id === subscriptionId) ?? subscriptions[0]
  const policy = presets.find((p) => p.id === chosen?.policyId)
  const contractChoices = contractChoicesFor(chosen, endpoints)
  // A subscription delivering to a contract endpoint composes freely, whatever its provider: the
  // spec's events and the catalog's are both offered, and the payload picked is sent as it is.
  const provider = contractChoices ? null : (chosen?.provider ?? null)
  // Another provider's subscription chosen: its catalog's first event, previewed afresh.
  if (provider !== null && composer?.provider !== provider) setComposer({ provider, value: catalogComposer(provider) })
  const forProvider = provider !== null && composer?.provider === provider ? composer.value : null
  const typed = forProvider ? forProvider.payload : payload
  let jsonError: string | null = null
  try {
    JSON.parse(typed)
  } catch (error) {
    jsonError = error instanceof Error ? error.message : 'not valid JSON'
  }
  const sentType = forProvider ? forProvider.eventType : eventType.trim()
  const send = async () => {
    if (!chosen) return
    setBusy(true)
    // The catalog's payload is left out: the engine builds it per event, as `hookloop trigger` does.
    const body = forProvider && !forProvider.edited ? {} : { payload: typed }
    const result = await run('Send', (c) => c.call('event.send', { subscriptionId: chosen.id, eventType: sentType, ...body, count, faults }))
    setBusy(false)
    if (result) toast('ok', `Sent ${result.eventIds.length} event${result.eventIds.length === 1 ? '' : 's'} to ${chosen.name}`)
    if (result && provider !== null && forProvider && !forProvider.edited) setComposer({ provider, value: catalogComposer(provider, forProvider.eventType) })
  }
  return (
    <Page title="Sender" hint="Hookloop signs and delivers events under the subscription's retry policy, exactly like the provider would.">
      {subscriptions.length === 0 ? (
        <EmptyCard title="No subscription to send to">
          <div>Create one under Subscriptions (it can target one of your endpoints){storeWide ? ', or use “Try the loop”' : ''}.</div>
          <button className="btn" onClick={() => useApp.setState({ view: 'subscriptions' })}>
            Go to Subscriptions
          </button>
        </EmptyCard>
      ) : (
        <div className="card" data-testid="sender-form">
          <div className="card-body">
            {!forProvider && contractChoices && (
              <ContractEventPicker
                key={contractChoices.endpoint.id}
                choices={contractChoices}
                onPick={(p) => {
                  setEventType(p.eventType)
                  setPayload(p.payload)
                }}
              />
            )}
            {!forProvider && (
              <CatalogPicker
                onPick={(p) => {
                  setEventType(p.eventType)
                  setPayload(p.payload)
                }}
              />
            )}
            <div className="grid2">
              <label className="field">
                Subscription
                <Select
                  choices={subscriptions.map((s) => ({ value: s.id, label: `${s.name}${s.provider ? ` (${PROVIDERS[s.provider].label})` : ''} — ${s.url}${s.paused ? ' (paused)' : ''}` }))}
                  value={chosen?.id ?? ''}
                  onChange={setSubscriptionId}
                  testId="sender-subscription"
                />
              </label>
              {provider !== null && forProvider ? (
                <ProviderEventFields provider={provider} value={forProvider} onChange={(value) => setComposer({ provider, value })} jsonError={jsonError} />
              ) : (
                <label className="field">
                  Event type
                  <input className="input mono" value={eventType} onChange={(e) => setEventType(e.target.value)} data-testid="sender-event-type" />
                </label>
              )}
            </div>
            {!forProvider && (
              <label className="field">
                Payload (JSON) — sent inside the envelope {'{event_id, event_type, payload}'}, or as the whole body when the subscription says so
                <textarea className={`input${jsonError ? ' invalid' : ''}`} rows={9} value={payload} onChange={(e) => setPayload(e.target.value)} spellCheck={false} data-testid="sender-payload" />
              </label>
            )}
            {jsonError && (
              <div className="error-text" data-testid="payload-error">
                The payload is not valid JSON: {jsonError}
              </div>
            )}
            <div className="row">
              <span className="hint">Sending faults:</span>
              {SEND_FAULT_TYPES.map((fault) => (
                <label key={fault} className="check">
                  <input
                    type="checkbox"
                    checked={faults.includes(fault)}
                    onChange={(e) => setFaults(e.target.checked ? [...faults, fault] : faults.filter((f) => f !== fault))}
                    data-testid={`fault-${fault}`}
                  />
                  {FAULT_LABEL[fault]}
                </label>
              ))}
            </div>
            <div className="row">
              <label className="hint row" style={{ gap: 4 }}>
                Events
                <input className="input" type="number" min={1} max={1000} value={count} onChange={(e) => setCount(Math.max(1, Math.min(1000, Number(e.target.value) || 1)))} style={{ width: 80 }} />
              </label>
              <button className="btn primary" disabled={busy || jsonError !== null || sentType === ''} onClick={() => void send()} data-testid="send">
                {busy ? <span className="spinner" /> : null} Send {count > 1 ? `${count} events` : 'event'}
              </button>
              <button
                className="btn"
                onClick={() => void showOnTimeline(chosen ? { subscriptionId: chosen.id } : {})}
                data-testid="watch-on-timeline"
              >
                Watch on timeline
              </button>
              {chosen?.paused && <span className="badge warn">paused: new deliveries wait until resumed</span>}
            </div>
          </div>
        </div>
      )}
      {chosen && (
        <Card title="Expected schedule" head={<span className="badge accent">{chosen.policyLabel}</span>}>
          {policy ? <ScheduleChart schedule={policy.schedule} timeoutMs={policy.timeoutMs} /> : <div className="hint">A custom policy: no preview.</div>}
        </Card>
      )}
    </Page>
  )
}
