// The providers whose own published schemas Hookloop ships (a new one = a file beside this and a
// line here). Every other pack's published source, or the plain statement that there is none, is
// in shared/providers/payload-schemas.ts; a request of such a provider gets "no schema" with it.
import { PAYLOAD_SCHEMAS, type ProviderId } from '../../../shared/providers'
import { githubSchemas } from './github'
import { shopifySchemas } from './shopify'
import type { SchemaPick, SchemaSource } from './source'

export const SCHEMA_SOURCES: Partial<Record<ProviderId, SchemaSource>> = {
  github: githubSchemas,
  shopify: shopifySchemas,
}

export function pickSchema(provider: ProviderId, header: (name: string) => string | undefined, body: unknown): SchemaPick {
  const source = SCHEMA_SOURCES[provider]
  return source ? source.pick(header, body) : { none: PAYLOAD_SCHEMAS[provider].none ?? 'no schema is shipped' }
}
