// Where a provider's payload schema comes from: a source picks, from a captured request's headers
// and body, the schema that describes it (its event and API version), or says why there is none.
import type { ProviderId } from '../../../shared/providers'
import type { EndpointContract } from '../../../shared/receiver'
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

/**
 * A schema given for the request rather than picked by its provider: the operation of the contract
 * its endpoint was made from (contracts/spec-schemas.ts). Plain data, so it crosses to the judge's
 * thread; the body is held against the message it fits best.
 */
export interface GivenSchema {
  /** One per spec digest and operation: checkers compiled for it are kept under this key. */
  key: string
  /** The spec, as a person names it: "Shop webhooks 1.2.0 (OpenAPI 3.1.0)". */
  source: string
  /** The spec's own version. */
  version: string
  /** The operation's name in the spec. */
  operation: string
  dialect: SchemaDialect
  /** OpenAPI 3.0's `nullable: true`. */
  nullableKeyword: boolean
  /** The operation's JSON messages that give a schema ($refs resolved). */
  messages: { eventType: string; schema: Record<string, unknown> }[]
}

/** No schema to give, and why; with the spec and operation when they are known. */
export interface NoGivenSchema {
  none: string
  source?: string
  version?: string
  schema?: string
}

/** Where an endpoint's contract gives its schema: the spec read once and kept (contracts/spec-schemas.ts). */
export interface ContractSchemas {
  given(contract: EndpointContract): Promise<GivenSchema | NoGivenSchema>
}
