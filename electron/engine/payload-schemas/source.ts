// Where a provider's payload schema comes from: a source picks, from a captured request's headers
// and body, the schema that describes it (its event and API version), or says why there is none.
import type { ProviderId } from '../../../shared/providers'
import type { SchemaDialect } from './drift'

export type SchemaPick =
  | {
      /** One per schema: a checker compiled for it is kept under this key. */
      key: string
      /** The source and its version, as a person names them. */
      source: string
      /** The provider's API version or document the schema is of. */
      version: string
      /** What the body is held against inside the source (the webhook's or the topic's name). */
      schema: string
      dialect: SchemaDialect
      /**
       * The headers the source documents for this request (GitHub's OpenAPI names them per webhook),
       * as it writes their names; a required one that did not come is a problem of the verdict.
       * The signature's headers are left to the signature verdict (a provider sends none without a secret).
       */
      headers?: readonly DocumentedHeader[]
      /** The schema, and the documents (each with its $id) its $refs point into; read the first time the key is needed. */
      load(): Promise<{ schema: Record<string, unknown>; documents?: Record<string, unknown>[] }>
    }
  | { none: string }

export interface DocumentedHeader {
  name: string
  required: boolean
  /** The source's words on it, or its example. */
  says: string
}

export interface SchemaSource {
  provider: ProviderId
  /** `header` reads a request header by its lower-case name. */
  pick(header: (name: string) => string | undefined, body: unknown): SchemaPick
}
