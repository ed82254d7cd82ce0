// Named statements over `request_schema_verdicts`: each captured body's schema verdict (valid,
// invalid with where and why, or no schema and why not). Written by the receiver's capture writer
// after the request is answered (INSERT_SCHEMA_VERDICT_SQL, the same group commit as captures);
// read by id for the lists, the timeline, the inspector and exports, on either engine.
import type { Database } from 'better-sqlite3'
import { MAX_SCHEMA_PROBLEMS, SCHEMA_VERDICTS, type SchemaProblem, type SchemaVerdict, type SchemaVerdictKind } from '../../../shared/receiver'
import { writeSql, type WriteSql } from './changes'
import type { SqlEngine } from './sql-engine'

export interface SchemaVerdictRow {
  request_id: number
  verdict: string
  source: string | null
  version: string | null
  schema_name: string | null
  pointer: string | null
  expected: string | null
  got: string | null
  schema_says: string | null
  problems_json: string
  reason: string | null
  checked_at: number
}

const COLUMNS = ['request_id', 'verdict', 'source', 'version', 'schema_name', 'pointer', 'expected', 'got', 'schema_says', 'problems_json', 'reason', 'checked_at'] as const

// A group commit's run of verdicts as one statement on PostgreSQL (WriteSql.rows): the first row's
// casts type the VALUES list's number columns (a bare parameter is text), the rows after take them.
// A verdict is written once per request, and no trigger reads the table: the rows' order within
// the statement changes nothing.
const NUMBER_COLUMNS: ReadonlySet<string> = new Set(['request_id', 'checked_at', 'of_request'])
const VERDICT_VALUES = [...COLUMNS, 'of_request'] as const
const verdictRows = (n: number): string =>
  `INSERT INTO request_schema_verdicts (${COLUMNS.join(', ')})
   SELECT ${COLUMNS.join(', ')} FROM (VALUES ${Array.from({ length: n }, (_, k) => `(${VERDICT_VALUES.map((c) => (k === 0 && NUMBER_COLUMNS.has(c) ? 'CAST(? AS BIGINT)' : '?')).join(', ')})`).join(', ')}) AS v(${VERDICT_VALUES.join(', ')})
    WHERE EXISTS (SELECT 1 FROM requests WHERE id = v.of_request)
   ON CONFLICT (request_id) DO NOTHING`

// A verdict is judged once; its request may have been pruned or cleared meanwhile: then nothing is written.
export const INSERT_SCHEMA_VERDICT_SQL: WriteSql = {
  ...writeSql(
    'request_schema_verdicts',
    `INSERT INTO request_schema_verdicts (${COLUMNS.join(', ')})
   SELECT ${COLUMNS.map(() => '?').join(', ')} WHERE EXISTS (SELECT 1 FROM requests WHERE id = ?)
   ON CONFLICT (request_id) DO NOTHING`,
    [...COLUMNS, 'request_id'],
  ),
  rows: verdictRows,
}

export function encodeSchemaVerdict(requestId: number, verdict: SchemaVerdict, checkedAt: number): SchemaVerdictRow {
  const first = verdict.problems[0]
  return {
    request_id: requestId,
    verdict: verdict.verdict,
    source: verdict.source,
    version: verdict.version,
    schema_name: verdict.schema,
    pointer: first?.pointer ?? null,
    expected: first?.expected ?? null,
    got: first?.got ?? null,
    schema_says: first?.schemaSays ?? null,
    problems_json: JSON.stringify(verdict.problems.slice(0, MAX_SCHEMA_PROBLEMS)),
    reason: verdict.reason,
    checked_at: checkedAt,
  }
}

const isVerdict = (v: string): v is SchemaVerdictKind => (SCHEMA_VERDICTS as readonly string[]).includes(v)

export function decodeSchemaVerdict(row: SchemaVerdictRow): SchemaVerdict {
  let problems: SchemaProblem[] = []
  try {
    const parsed = JSON.parse(row.problems_json) as unknown
    if (Array.isArray(parsed)) problems = parsed as SchemaProblem[]
  } catch {
    problems = []
  }
  if (problems.length === 0 && row.pointer !== null) problems = [{ pointer: row.pointer, expected: row.expected ?? '', got: row.got ?? '', schemaSays: row.schema_says ?? '' }]
  return {
    verdict: isVerdict(row.verdict) ? row.verdict : 'no-schema',
    source: row.source,
    version: row.version,
    schema: row.schema_name,
    problems,
    reason: row.reason,
  }
}

const SELECT_MANY = (count: number) => `SELECT * FROM request_schema_verdicts WHERE request_id IN (${Array.from({ length: count }, () => '?').join(', ')})`
/** Ids per statement: well under every engine's limit of parameters. */
const CHUNK = 500

/** The verdicts of these requests (those judged so far), by request id, on either engine. */
export async function readSchemaVerdicts(engine: SqlEngine, requestIds: readonly number[]): Promise<Map<number, SchemaVerdict>> {
  const out = new Map<number, SchemaVerdict>()
  for (let i = 0; i < requestIds.length; i += CHUNK) {
    const ids = requestIds.slice(i, i + CHUNK)
    const rows = await engine.all<SchemaVerdictRow>(SELECT_MANY(ids.length), ids)
    for (const row of rows) out.set(Number(row.request_id), decodeSchemaVerdict(row))
  }
  return out
}

/** What the receiver holds against a schema: the stored request, as it arrived. */
export interface SchemaSubject {
  id: number
  headers_json: string
  body: Buffer | null
  body_truncated: number
}

const SUBJECT_SQL = 'SELECT id, headers_json, body, body_truncated FROM requests WHERE id = ?'

/** A judged request's stored bytes on a team's PostgreSQL, awaited (the receiver's one read there). */
export function createSchemaSubjectReads(engine: SqlEngine) {
  return {
    subject: (id: number): Promise<SchemaSubject | undefined> => engine.get<SchemaSubject>(SUBJECT_SQL, [id]),
  }
}

/** The receiver's reads on its own connection: a judged request's stored bytes, a verdict by id. */
export function createSchemaVerdictStore(db: Database) {
  const subject = db.prepare(SUBJECT_SQL)
  const one = db.prepare('SELECT * FROM request_schema_verdicts WHERE request_id = ?')
  return {
    subject: (id: number) => subject.get(id) as SchemaSubject | undefined,
    get(requestId: number): SchemaVerdict | undefined {
      const row = one.get(requestId) as SchemaVerdictRow | undefined
      return row ? decodeSchemaVerdict(row) : undefined
    },
  }
}
