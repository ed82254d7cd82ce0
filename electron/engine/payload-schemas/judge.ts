// The schema verdict of one captured request: its provider's schema picked by the request's event
// and API version (sources.ts), the body held against it by the same checker contracts use
// (drift.ts). Invalid when the body misses the schema anywhere: a required field, a type, an enum,
// a format or bound; a field the schema does not name is not a miss (providers add fields before
// their documents do). A checker is compiled once per schema and kept.
import { MAX_SCHEMA_PROBLEMS, type SchemaProblem, type SchemaVerdict } from '../../../shared/receiver'
import { PAYLOAD_SCHEMAS, type ProviderId } from '../../../shared/providers'
import { parseBody } from './body-json'
import { createBodyChecker, UnusableSchemaError, type BodyChecker } from './drift'
import { pickSchema, SCHEMA_SOURCES } from './sources'
import type { DocumentedHeader } from './source'

export interface SchemaJudge {
  judge(provider: ProviderId, headers: readonly [string, string][], body: Buffer, bodyTruncated: boolean): Promise<SchemaVerdict>
}

/** A "no schema" verdict and why. */
export const noSchema = (reason: string, at: Partial<SchemaVerdict> = {}): SchemaVerdict => ({ verdict: 'no-schema', source: null, version: null, schema: null, problems: [], reason, ...at })

/** The documented headers that are required and did not come, each at `header Name`. */
function missingHeaders(documented: readonly DocumentedHeader[], header: (name: string) => string | undefined): SchemaProblem[] {
  return documented
    .filter((h) => h.required && (header(h.name.toLowerCase()) ?? '').trim() === '')
    .map((h) => ({ pointer: `header ${h.name}`, expected: 'required', got: 'missing', schemaSays: h.says }))
}

/**
 * The verdict of a provider whose schemas Hookloop does not ship, whatever the request: "no schema"
 * and what the provider publishes. Told without reading the body back or asking a judge.
 */
export function verdictWithoutSource(provider: ProviderId): SchemaVerdict | null {
  return SCHEMA_SOURCES[provider] ? null : noSchema(PAYLOAD_SCHEMAS[provider].none ?? 'no schema is shipped')
}

export function createSchemaJudge(): SchemaJudge {
  const checkers = new Map<string, Promise<BodyChecker | string>>()
  return {
    async judge(provider, headers, body, bodyTruncated) {
      const sourceless = verdictWithoutSource(provider)
      if (sourceless) return sourceless
      if (bodyTruncated) return noSchema('the body was not kept whole: it cannot be checked')
      const parsed = parseBody(body, headers)
      if (!parsed) return noSchema('the body is not JSON')
      const header = (name: string) => headers.find(([key]) => key.toLowerCase() === name)?.[1]
      let pick: ReturnType<typeof pickSchema>
      try {
        pick = pickSchema(provider, header, parsed.json)
      } catch (error) {
        // A source that cannot be read (its package missing from an install): no verdict, and why.
        return noSchema(`the schema source could not be read: ${(error as Error).message.split('\n')[0]}`)
      }
      if ('none' in pick) return noSchema(pick.none)
      const at = { source: pick.source, version: pick.version, schema: pick.schema }
      let checker = checkers.get(pick.key)
      if (!checker) {
        checker = pick.load().then(
          ({ schema, documents }) => createBodyChecker(schema, pick.dialect, false, { ...(documents ? { documents } : {}), undocumented: false }),
          (error: unknown) => `its schema could not be read: ${(error as Error).message}`,
        )
        checker = checker.catch((error: unknown) => {
          if (error instanceof UnusableSchemaError) return error.message
          throw error
        })
        checkers.set(pick.key, checker)
      }
      const ready = await checker
      if (typeof ready === 'string') return noSchema(ready, at)
      const problems = [
        ...missingHeaders(pick.headers ?? [], header),
        ...ready
          .check(parsed.json)
          .filter((d) => d.kind !== 'undocumented')
          .map(({ pointer, expected, got, schemaSays }) => ({ pointer, expected, got, schemaSays })),
      ].slice(0, MAX_SCHEMA_PROBLEMS)
      return { verdict: problems.length === 0 ? 'valid' : 'invalid', ...at, problems, reason: null }
    },
  }
}
