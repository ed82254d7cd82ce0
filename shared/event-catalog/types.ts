// The event catalog: common event types per provider with payloads written from each provider's
// public documentation. A payload is built per send (fresh ids and times) from a FixtureContext;
// it is the part of the body the provider's envelope wraps (see ProviderEnvelope.payloadPath in shared/providers).

export interface FixtureContext {
  /** `prefix` + random alphanumerics (Stripe's pi_…, Paddle's txn_…). */
  id(prefix: string, length?: number): string
  uuid(): string
  /** A random decimal number of `digits` digits, as a string (GitHub and Shopify ids). */
  digits(digits: number): string
  /** The send time, ms. */
  now: number
  /** ISO 8601 of now + offsetMs. */
  iso(offsetMs?: number): string
  /** Unix seconds of now + offsetMs. */
  unix(offsetMs?: number): number
  /**
   * The provider API version the delivery follows (the subscription's, else the pack's first
   * `apiVersions` entry); undefined for a provider without versions. A payload whose provider's
   * schema differs between versions follows it.
   */
  apiVersion: string | undefined
}

export interface CatalogEvent {
  type: string
  description: string
  payload(ctx: FixtureContext): unknown
}
