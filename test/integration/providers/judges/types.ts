import type { ProviderId } from '../../../../shared/providers'

// A judge: one provider's official library (or, where none is published, the check the
// provider's docs give), run as a consumer the way the library's docs show. Every provider test
// and the every-pack scenario use the same judges (judges/index.ts lists them), so "the official
// library accepts it" means one thing throughout.

export interface JudgeConsumer {
  /** Where deliveries go: a server on 127.0.0.1. */
  url: string
  /** The event types the library accepted and parsed, in arrival order. */
  accepted: string[]
  /** The delivery id the library reported for each accepted delivery, where it reports one (X-GitHub-Delivery, X-Shopify-Webhook-Id): Hookloop's event id travels in it. */
  deliveryIds?: string[]
  close(): Promise<void>
}

export interface Judge {
  provider: ProviderId
  /** The library and its major version, e.g. `stripe 23`, or `Zoom's documented check`. */
  library: string
  /** The secret the consumer is configured with (deliveries must be signed with it). */
  secret: string
  /** The scheme signs a time, so a delivery signed 10 minutes ago must be refused. */
  signsTime?: true
  /** What the library parses names no event type (Twilio's form parameters): `accepted` holds what it does name. */
  namesNoType?: true
  /** Starts a consumer that answers 2xx when the library accepts a delivery and 4xx when it refuses it. */
  start(): Promise<JudgeConsumer>
}
