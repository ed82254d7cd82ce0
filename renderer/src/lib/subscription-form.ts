// The New subscription form as data: what a provider's pack fills in, what is wrong with the input
// (one message per field, shown beside it), and the `subscription.create` request it becomes.
import type { CommandRequest } from '../../../shared/contract'
import type { Envelope, PolicyPresetId } from '../../../shared/sender'
import { PROVIDERS, type ProviderId } from '../../../shared/providers'
import { SECRET_MAX_LENGTH } from '../../../shared/secrets'
import type { SchemeId } from '../../../shared/signatures'

export interface SubscriptionForm {
  name: string
  /** An endpoint id, or 'url' for the URL field. */
  target: string
  url: string
  /** '' = Hookloop's own shape. */
  provider: ProviderId | ''
  /** '' = the provider has no versions. */
  apiVersion: string
  scheme: SchemeId
  policyId: PolicyPresetId
  /** Hookloop's own shape only: a provider's pack gives the body. */
  envelope: Envelope
  /** '' = the engine makes one. */
  secret: string
}

export type FormField = 'name' | 'url' | 'target' | 'secret'
export type FormProblems = Partial<Record<FormField, string>>

/** Picking a provider fills scheme, policy and API version from its pack (still changeable after). */
export function withProvider(form: SubscriptionForm, provider: ProviderId | ''): SubscriptionForm {
  if (provider === '') return { ...form, provider, apiVersion: '' }
  const pack = PROVIDERS[provider]
  return { ...form, provider, scheme: pack.scheme, policyId: pack.policy, apiVersion: pack.apiVersions?.[0] ?? '' }
}

export function formProblems(form: SubscriptionForm, endpointCount: number): FormProblems {
  const problems: FormProblems = {}
  const name = form.name.trim()
  if (name === '') problems.name = 'Name the subscription (it labels its deliveries).'
  else if (name.length > 120) problems.name = `A name has at most 120 characters; this one has ${name.length}.`
  if (form.target === 'url' || endpointCount === 0) {
    const url = form.url.trim()
    if (url === '') problems.url = 'Give the URL to deliver to, e.g. https://example.test/webhooks.'
    else problems.url = urlProblem(url)
    if (problems.url === undefined) delete problems.url
  }
  if (form.secret.length > SECRET_MAX_LENGTH) problems.secret = `A secret has at most ${SECRET_MAX_LENGTH} characters; this one has ${form.secret.length}.`
  else if (form.secret !== '' && form.secret.trim() !== form.secret) problems.secret = 'The secret starts or ends with a space; paste it without.'
  return problems
}

function urlProblem(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `“${url}” is not a URL; it starts with http:// or https://.`
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `A subscription delivers over http:// or https://, not ${parsed.protocol}`
  return undefined
}

export function createRequest(form: SubscriptionForm, firstEndpointId: string | undefined): CommandRequest<'subscription.create'> {
  const useUrl = form.target === 'url' || firstEndpointId === undefined
  const target = useUrl ? { url: form.url.trim() } : { endpointId: form.target || firstEndpointId }
  const secret = form.secret === '' ? {} : { secret: form.secret }
  const base = { name: form.name.trim(), target, scheme: form.scheme, policyId: form.policyId, ...secret }
  if (form.provider === '') return { ...base, envelope: form.envelope }
  return { ...base, provider: form.provider, ...(form.apiVersion === '' ? {} : { apiVersion: form.apiVersion }) }
}
