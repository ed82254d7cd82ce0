// Small shared pieces: status, signature, schema and duplicate badges, the outcome legend.
import type { MarkTone, SchemaBadge, SignatureBadge, TimelineRow } from '../../../shared/contract'
import type { RowVerdict } from '../state'
import { COUNT_WORDS, countText } from '../../../shared/contract'
import { schemaVerdictLabel } from '../../../shared/receiver'

const STATUS_TONE: Record<TimelineRow['status'], string> = {
  pending: 'pending',
  retrying: 'retrying',
  succeeded: 'ok',
  failed: 'failed',
  received: 'received',
}

export function StatusBadge({ status }: { status: TimelineRow['status'] }) {
  return (
    <span className={`badge ${STATUS_TONE[status]}`} data-status={status}>
      {status}
    </span>
  )
}

export function SignatureBadgeView({ signature }: { signature: SignatureBadge }) {
  switch (signature.state) {
    case 'valid':
      return (
        <span className="badge ok" title={signature.detail ?? 'signature valid'} data-signature="valid">
          ✓ sig
        </span>
      )
    case 'invalid':
      return (
        <span className="badge bad" title={signature.detail ?? signature.reason} data-signature="invalid">
          ✗ {shortReason(signature.reason)}
        </span>
      )
    case 'none':
      return (
        <span className="badge neutral" title="not verified" data-signature="none">
          no sig
        </span>
      )
    default: {
      const never: never = signature.state
      return never
    }
  }
}


const SCHEMA_TONE: Record<SchemaBadge['verdict'], string> = { valid: 'ok', invalid: 'bad', 'no-schema': 'neutral' }
const SCHEMA_TITLE: Record<SchemaBadge['verdict'], string> = {
  valid: 'the body matches the schema its provider publishes',
  invalid: 'the body misses the schema its provider publishes',
  'no-schema': 'no published schema to hold the body against (the inspector says why)',
}

/** Beside the signature badge: the body against its provider's schema; nothing when not judged. `full` says where it fails (the inspector's head). */
export function SchemaBadgeView({ schema, full = false }: { schema: SchemaBadge | undefined; full?: boolean }) {
  if (!schema) return null
  const label = schemaVerdictLabel(schema)
  const short = schema.verdict === 'invalid' ? '✗ schema' : schema.verdict === 'valid' ? '✓ schema' : 'no schema'
  return (
    <span className={`badge ${SCHEMA_TONE[schema.verdict]}${full ? ' ellipsis' : ''}`} title={`${label}: ${SCHEMA_TITLE[schema.verdict]}`} data-schema={schema.verdict} data-testid="schema-badge">
      {full ? label : short}
    </span>
  )
}

const SHORT_REASON: Partial<Record<NonNullable<SignatureBadge['reason']>, string>> = {
  signature_mismatch: 'mismatch',
  missing_header: 'no header',
  malformed_header: 'bad header',
  no_matching_version: 'no v1',
  timestamp_too_old: 'too old',
  timestamp_too_new: 'too new',
  bad_secret_format: 'bad secret',
  no_secret: 'no secret',
  missing_url: 'no URL',
  empty_body: 'empty body',
  malformed_body: 'bad body',
}

/** A few words for the badge; the full reason and sentence are in its title and the inspector. */
function shortReason(reason: SignatureBadge['reason']): string {
  if (!reason) return 'invalid'
  return SHORT_REASON[reason] ?? reason.replace(/_/g, ' ')
}

/**
 * A row's duplicate arrivals (shared/contract/counts.ts): the arrivals of the event id beyond the
 * first, the same number its subscription's card adds up; three arrivals read "2 dup" (README).
 */
export function DuplicateBadge({ count }: { count: number }) {
  if (count <= 0) return null
  return (
    <span className="badge warn" title={`${countText(count, 'duplicate arrival')}. ${COUNT_WORDS.duplicates.explain}`} data-duplicates={count}>
      {count} dup
    </span>
  )
}

/** What a row says about itself wherever it is shown: signature, schema and duplicates. */
export function RowMarks({ row }: { row: Pick<TimelineRow, 'signature' | 'schema' | 'duplicates'> }) {
  return (
    <>
      <SignatureBadgeView signature={row.signature} />
      {/* A row names a verdict only: "no schema" (and why) is the inspector's, not worth a row's width. */}
      <SchemaBadgeView schema={row.schema?.verdict === 'no-schema' ? undefined : row.schema} />
      <DuplicateBadge count={row.duplicates} />
    </>
  )
}

/** A scenario run's verdict on one of its own deliveries: ✓ when every expectation about it holds, each one in the tooltip. */
export function VerdictMark({ verdict }: { verdict: RowVerdict }) {
  return (
    <span className={`vmark ${verdict.ok ? 'ok' : 'fail'}`} title={verdict.lines.join('\n')} data-testid="row-verdict" data-ok={verdict.ok}>
      {verdict.ok ? '✓' : '✗'}
    </span>
  )
}

export const TONE_LABEL: Record<MarkTone, string> = {
  ok: '2xx',
  retrying: 'retrying (5xx, timeout, connection)',
  final: 'final (4xx, 3xx)',
  failed: 'failed',
  pending: 'scheduled',
}

export const TONE_COLOR: Record<MarkTone, string> = {
  ok: 'var(--ok)',
  retrying: 'var(--retry)',
  final: 'var(--final)',
  failed: 'var(--fail)',
  pending: 'var(--pending)',
}

export function Legend() {
  return (
    <div className="legend" aria-label="legend">
      {(Object.keys(TONE_LABEL) as MarkTone[]).map((tone) => (
        <span key={tone}>
          <i style={{ background: TONE_COLOR[tone] }} />
          {TONE_LABEL[tone]}
        </span>
      ))}
    </div>
  )
}
