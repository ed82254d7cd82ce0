import { PROVIDERS, type ProviderId } from '../../../shared/providers'
import type { PolicySpec } from '../../../shared/sender'
import type { SubscriptionInput } from '../sender'
import type { SubscriptionTarget } from '../store'

// A subscription that delivers as a provider does: the pack's scheme, policy and shape. The pack
// decides the body and headers per attempt; the subscription's own headers still go on top.

export interface PackSubscriptionInput {
  id?: string
  name?: string
  target: SubscriptionTarget
  /** Signing secrets (first signs). Default: a fresh one, none for a provider that does not sign. */
  secrets?: string[]
  /** Default: the provider's documented policy. */
  policy?: PolicySpec
  headers?: Record<string, string>
  /** One of the pack's `apiVersions`; default: its first. */
  apiVersion?: string
}

export function packSubscription(provider: ProviderId, input: PackSubscriptionInput): SubscriptionInput {
  const pack = PROVIDERS[provider]
  const secrets = input.secrets ?? (pack.unsigned ? [] : undefined)
  return {
    ...(input.id === undefined ? {} : { id: input.id }),
    name: input.name ?? `${pack.label} → ${'url' in input.target ? input.target.url : input.target.endpoint}`,
    target: input.target,
    scheme: pack.scheme,
    ...(secrets === undefined ? {} : { secrets }),
    policy: input.policy ?? pack.policy,
    ...(input.headers ? { headers: input.headers } : {}),
    provider,
    ...(input.apiVersion === undefined ? {} : { apiVersion: input.apiVersion }),
  }
}
