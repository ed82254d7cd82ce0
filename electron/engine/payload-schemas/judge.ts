// The schema verdict of one captured request: its provider's schema picked by the request's event
// and API version (sources.ts), the body held against it by the same checker contracts use
// (drift.ts). Invalid when the body misses the schema anywhere: a required field, a type, an enum,
// a format or bound; a field the schema does not name is not a miss (providers add fields before
// their documents do). A checker is compiled once per schema and kept. A schema given for the
// request (its endpoint's contract: GivenSchema) is judged the same way, against the operation's
// message the body fits best.
import { MAX_SCHEMA_PROBLEMS, type SchemaProblem, type SchemaVerdict } from '../../../shared/receiver'
import { PAYLOAD_SCHEMAS, type ProviderId } from '../../../shared/providers'
import { parseBody } from './body-json'
import { createBodyChecker, UnusableSchemaError, type BodyChecker } from './drift'
import { pickSchema, SCHEMA_SOURCES } from './sources'
import type { DocumentedHeader, GivenSchema } from './source'

export interface SchemaJudge {
  judge(provider: ProviderId, headers: readonly [string, string][], body: Buffer, bodyTruncated: boolean): Promise<SchemaVerdict>
  /** The body held against a schema given for it (a contract's operation). */
  judgeGiven(given: GivenSchema, headers: readonly [string, string][], body: Buffer, bodyTruncated: boolean): Promise<SchemaVerdict>
}

/** The places a body misses its checker's schema, first first; fields it does not name are no miss. */
const problemsOf = (checker: BodyChecker, json: unknown): SchemaProblem[] =>
  checker
    .check(json)
    .filter((d) => d.kind !== 'undocumented')
    .slice(0, MAX_SCHEMA_PROBLEMS)
    .map(({ pointer, expected, got, schemaSays }) => ({ pointer, expected, got, schemaSays }))

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
  const givenCheckers = new Map<string, BodyChecker | string>()
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
      const problems = [...missingHeaders(pick.headers ?? [], header), ...problemsOf(ready, parsed.json)].slice(0, MAX_SCHEMA_PROBLEMS)
      return { verdict: problems.length === 0 ? 'valid' : 'invalid', ...at, problems, reason: null }
    },
    async judgeGiven(given, headers, body, bodyTruncated) {
      const at = { source: given.source, version: given.version, schema: given.operation }
      if (bodyTruncated) return noSchema('the body was not kept whole: it cannot be checked', at)
      const parsed = parseBody(body, headers)
      if (!parsed) return noSchema('the body is not JSON', at)
      if (given.messages.length === 0) return noSchema(`the spec gives no JSON body schema for ${given.operation}`, at)
      // Several messages (an AsyncAPI operation's, a callback's oneOf): the one with the fewest misses.
      let best: { eventType: string; problems: SchemaProblem[] } | null = null
      const unusable: string[] = []
      for (const [index, message] of given.messages.entries()) {
        const key = `${given.key}\u0000${index}`
        let checker = givenCheckers.get(key)
        if (checker === undefined) {
          try {
            checker = createBodyChecker(message.schema, given.dialect, given.nullableKeyword, { undocumented: false })
          } catch (error) {
            if (!(error instanceof UnusableSchemaError)) throw error
            checker = error.message
          }
          givenCheckers.set(key, checker)
        }
        if (typeof checker === 'string') {
          unusable.push(`${message.eventType}: ${checker}`)
          continue
        }
        const problems = problemsOf(checker, parsed.json)
        if (!best || problems.length < best.problems.length) best = { eventType: message.eventType, problems }
      }
      if (!best) return noSchema(unusable.join('; '), at)
      const schema = given.messages.length > 1 && best.eventType !== given.operation ? `${given.operation} › ${best.eventType}` : given.operation
      return { verdict: best.problems.length === 0 ? 'valid' : 'invalid', ...at, schema, problems: best.problems, reason: null }
    },
  }
}
