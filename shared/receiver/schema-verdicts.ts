// A captured body held against the schema its provider publishes (docs/receiver.md, "Schema
// verdict"): valid, invalid (with the first place it fails), or no schema (and why not). Judged
// after the request is answered, so a request may have none yet.

export const SCHEMA_VERDICTS = ['valid', 'invalid', 'no-schema'] as const
export type SchemaVerdictKind = (typeof SCHEMA_VERDICTS)[number]

/** One place a body misses its schema. */
export interface SchemaProblem {
  /** Where: a JSON pointer in the body ("" is the whole body), or `header Name` for a header the source documents. */
  pointer: string
  /** What the schema expects there, in a few words ("required", "string", "one of open, closed"). */
  expected: string
  /** What came ("missing", `integer 7`). */
  got: string
  /** The schema's own words: the field's description, else the keyword as the schema writes it. */
  schemaSays: string
}

export interface SchemaVerdict {
  verdict: SchemaVerdictKind
  /** The schema's source ("GitHub webhooks OpenAPI (@octokit/openapi-webhooks 12.1.0)"); null with no schema. */
  source: string | null
  /** The provider's API version (or document) the schema is of ("2026-07", "api.github.com"); null when none applies. */
  version: string | null
  /** What the body was held against inside the source (the webhook's or the topic's name). */
  schema: string | null
  /** Invalid: the places the body misses its schema, first first (at most MAX_SCHEMA_PROBLEMS). */
  problems: SchemaProblem[]
  /** No schema: why not, in words ("Stripe publishes no JSON schema of its events"). */
  reason: string | null
}

/** The most places a verdict keeps: the first ones say what is wrong. */
export const MAX_SCHEMA_PROBLEMS = 20

/** A verdict's first place, wherever it is held: the stored verdict, a list row, a timeline badge. */
export interface SchemaVerdictGist {
  verdict: SchemaVerdict['verdict']
  pointer?: string | null | undefined
  expected?: string | null | undefined
}

/** The verdict in a few characters, as the timeline row, `hookloop requests` and `listen` show it: "schema ✓", "schema ✗ /pull_request/head/repo: required", "no schema". */
export function schemaVerdictLabel(gist: SchemaVerdictGist): string {
  switch (gist.verdict) {
    case 'valid':
      return 'schema ✓'
    case 'invalid':
      return gist.pointer === null || gist.pointer === undefined ? 'schema ✗' : `schema ✗ ${gist.pointer || '/'}: ${gist.expected ?? ''}`
    case 'no-schema':
      return 'no schema'
    default: {
      const never: never = gist.verdict
      return never
    }
  }
}

/** The stored verdict's gist: its first problem. */
export const schemaVerdictGist = (verdict: SchemaVerdict): SchemaVerdictGist => ({ verdict: verdict.verdict, pointer: verdict.problems[0]?.pointer ?? null, expected: verdict.problems[0]?.expected ?? null })
