// The New subscription form: a provider (its pack fills scheme, policy and body; scheme and policy
// stay changeable), its API version where it has several, where to deliver, and the secret.
import { useState } from 'react'
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../../shared/providers'
import { SCHEMES } from '../../../shared/signatures'
import { createRequest, formProblems, withProvider, type FormField, type SubscriptionForm } from '../lib/subscription-form'
import { run, toast, useApp } from '../state'
import { SecretField } from './SecretField'
import { Card } from './Page'
import { named, presetChoices, Select, type Choice } from './Select'

const EMPTY: SubscriptionForm = {
  name: '',
  target: '',
  url: '',
  provider: '',
  apiVersion: '',
  scheme: 'standard-webhooks',
  policyId: 'pandoktorek',
  envelope: 'event',
  secret: '',
}

const PROVIDER_CHOICES: Choice<ProviderId | ''>[] = [
  { value: '', label: 'Hookloop’s own shape', title: 'Your event type and payload, in the body shape you pick below' },
  ...PROVIDER_IDS.map((id) => ({ value: id, label: PROVIDERS[id].label, title: PROVIDERS[id].success })),
]

export function NewSubscription() {
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const presets = useApp((s) => s.snapshot?.policyPresets ?? [])
  const schemes = useApp((s) => s.snapshot?.schemes ?? [])
  const [form, setForm] = useState<SubscriptionForm>(EMPTY)
  // A field's problem shows once it was edited, or once Create was pressed.
  const [shown, setShown] = useState<ReadonlySet<FormField>>(new Set())
  const [busy, setBusy] = useState(false)
  const problems = formProblems(form, endpoints.length)
  const problemOf = (field: FormField) => (shown.has(field) ? problems[field] : undefined)
  const edit = (field: FormField | null, patch: Partial<SubscriptionForm>) => {
    setForm((f) => ({ ...f, ...patch }))
    if (field) setShown((s) => new Set(s).add(field))
  }
  const pack = form.provider === '' ? null : PROVIDERS[form.provider]
  const useUrl = form.target === 'url' || endpoints.length === 0
  const create = async () => {
    setShown(new Set<FormField>(['name', 'url', 'secret']))
    if (Object.keys(problems).length > 0) return
    setBusy(true)
    const created = await run('Create subscription', (c) => c.call('subscription.create', createRequest(form, endpoints[0]?.id)))
    setBusy(false)
    if (created) {
      toast('ok', `Subscription ${created.name} delivers to ${created.url}`)
      // The secret leaves the screen: from now on the card shows only its hint.
      setForm((f) => ({ ...f, name: '', secret: '' }))
      setShown(new Set())
    }
  }
  return (
    <Card title="New subscription" testId="new-subscription">
      <div className="grid2">
        <label className="field">
          Name
          <input className={`input${problemOf('name') ? ' invalid' : ''}`} value={form.name} onChange={(e) => edit('name', { name: e.target.value })} placeholder="clinic webhooks" data-testid="subscription-name" />
          <Problem text={problemOf('name')} field="name" />
        </label>
        <label className="field">
          Deliver as
          <Select choices={PROVIDER_CHOICES} value={form.provider} onChange={(provider) => setForm((f) => withProvider(f, provider))} testId="subscription-provider" />
          <span className="hint">{pack ? `${pack.label}’s headers and content type; its scheme and policy below` : 'Hookloop’s headers; your event types'}</span>
        </label>
        {pack?.apiVersions && pack.apiVersions.length > 0 && (
          <label className="field">
            {pack.label} API version
            <Select choices={named(pack.apiVersions)} value={form.apiVersion} onChange={(apiVersion) => edit(null, { apiVersion })} testId="subscription-api-version" />
            <span className="hint">The payloads follow this version’s objects; the first is the newest.</span>
          </label>
        )}
        <label className="field">
          Deliver to
          <select className="input" value={useUrl ? 'url' : form.target} onChange={(e) => edit(null, { target: e.target.value })} data-testid="subscription-target">
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                our endpoint {e.name} (loop)
              </option>
            ))}
            <option value="url">a URL…</option>
          </select>
        </label>
        {useUrl && (
          <label className="field">
            URL
            <input
              className={`input mono${problemOf('url') ? ' invalid' : ''}`}
              value={form.url}
              onChange={(e) => edit('url', { url: e.target.value, target: 'url' })}
              placeholder="https://example.test/webhooks"
              data-testid="subscription-url"
            />
            <Problem text={problemOf('url')} field="url" />
          </label>
        )}
        <label className="field">
          Signing scheme
          <Select choices={schemes.filter((s) => s !== 'custom').map((s) => ({ value: s, label: SCHEMES[s].label }))} value={form.scheme} onChange={(scheme) => edit(null, { scheme })} testId="subscription-scheme" />
        </label>
        <label className="field">
          Retry policy
          <Select choices={presetChoices(presets)} value={form.policyId} onChange={(policyId) => edit(null, { policyId })} testId="subscription-policy" />
        </label>
        <label className="field">
          Body
          {pack ? (
            <select className="input" disabled value="pack" data-testid="subscription-envelope" title={`${pack.contentType}`}>
              <option value="pack">{pack.envelope.words}</option>
            </select>
          ) : (
            <select className="input" value={form.envelope} onChange={(e) => edit(null, { envelope: e.target.value === 'payload' ? 'payload' : 'event' })} data-testid="subscription-envelope">
              <option value="event" title="{event_id, event_type, payload}">Hookloop envelope</option>
              <option value="payload" title="The payload is the whole body; the event id travels in the event-id header">payload as the body</option>
            </select>
          )}
        </label>
        <SecretField scheme={form.scheme} value={form.secret} onChange={(secret) => edit('secret', { secret })} problem={problemOf('secret')} />
      </div>
      <div className="row">
        <button className="btn primary" disabled={busy} onClick={() => void create()} data-testid="create-subscription">
          {busy ? <span className="spinner" /> : null} Create subscription
        </button>
      </div>
    </Card>
  )
}

function Problem({ text, field }: { text: string | undefined; field: FormField }) {
  if (!text) return null
  return (
    <span className="error-text" data-testid={`${field}-problem`}>
      {text}
    </span>
  )
}
