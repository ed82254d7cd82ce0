// The audit (migration 23): who changed what, and when, on either store engine through SqlEngine.
// The detail is redacted here, as it is written, so no caller can put a secret in the table:
// passwords, signing secrets, tokens, link secrets and secret-ish headers become REDACTED.
import { randomBytes } from 'node:crypto'
import { REDACTED, type AuditVia, type AuditView } from '../../../shared/contract'
import { isSecretName, redactUrl } from '../../../shared/redaction'
import type { SqlEngine } from './sql-engine'
import { DEFAULT_WORKSPACE } from './workspaces'

export interface NewAuditEntry {
  /** Wall-clock ms. */
  at: number
  /** The workspace it happened in; default `default` (everything without accounts). */
  workspaceId?: string
  actorId: string | null
  actor: string
  via: AuditVia
  command: string
  target: { kind: string; id: string } | null
  summary: string
  detail: unknown
}

export interface AuditFilter {
  /** Only this workspace's entries. */
  workspaceId?: string
  /** An account's address (any case), or `local`. */
  actor?: string
  command?: string
  /** Wall-clock ms: entries at or after it. */
  since?: number
}

export interface AuditStore {
  record(entry: NewAuditEntry): Promise<AuditView>
  /** Newest first. */
  list(filter: AuditFilter, offset: number, limit: number): Promise<{ entries: AuditView[]; total: number }>
  /** Deletes the entries older than `before` (wall-clock ms), at most `limit` of them; how many went. */
  pruneBefore(before: number, limit: number): Promise<number>
}

// A key names a secret when it says so, as a header or a query parameter would (shared/redaction.ts:
// token, secret, password, key, auth, signature …), or when it holds secrets or a one-time link;
// its value goes whatever it is (a string, a list of secrets, an object of them).
const isSecretKey = (key: string): boolean => isSecretName(key) || /^(secrets|links?|passwords|tokens|cookies)$/i.test(key)

/** Longer strings are not kept in a detail. */
const LONG_TEXT = 1000

/** A header's name (RFC 9110 token): what tells a [name, value] pair from a list of two strings. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** `value` with every secret replaced by REDACTED: by key, and in [name, value] / {name, value} header pairs. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED
  if (Array.isArray(value)) {
    // A header as a pair: its name says whether its value is a secret.
    if (value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && HEADER_NAME.test(value[0]) && isSecretName(value[0])) return [value[0], REDACTED]
    return value.map((item) => redactSecrets(item, depth + 1))
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    const headerName = typeof record.name === 'string' ? record.name : undefined
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(record)) {
      if (isSecretKey(key)) out[key] = inner === undefined || inner === null ? inner : REDACTED
      else if (key === 'value' && headerName !== undefined && isSecretName(headerName)) out[key] = REDACTED
      else out[key] = redactSecrets(inner, depth + 1)
    }
    return out
  }
  // A long text (an imported HAR, a resend's new body) is what was sent, not what changed: its
  // length is kept, never its content, which no name here can vouch for.
  if (typeof value === 'string' && value.length > LONG_TEXT) return `[${value.length} characters, not kept]`
  // A URL keeps its address, not a secret in its query (?token=…) or its user info.
  if (typeof value === 'string' && /^(https?|wss?|postgres(ql)?):\/\//i.test(value)) return redactUrl(value).replace(/^([a-z]+:\/\/[^/@:]*):[^/@]*@/i, `$1:${REDACTED}@`)
  return value
}

/** The detail kept at most: a change's request can carry a whole body. */
const DETAIL_LIMIT = 16_000

function detailText(detail: unknown): string {
  const text = JSON.stringify(redactSecrets(detail ?? {})) ?? '{}'
  return text.length <= DETAIL_LIMIT ? text : JSON.stringify({ truncated: true, preview: text.slice(0, 2_000) })
}

interface RawAudit {
  id: string
  at: number | string
  actor_id: string | null
  actor: string
  via: AuditVia
  command: string
  target_kind: string | null
  target_id: string | null
  summary: string
  detail_json: string
}

const COLUMNS = 'id, at, actor_id, actor, via, command, target_kind, target_id, summary, detail_json'

function fromRaw(raw: RawAudit): AuditView {
  let detail: unknown = {}
  try {
    detail = JSON.parse(raw.detail_json) as unknown
  } catch {
    detail = {}
  }
  return {
    id: raw.id,
    at: Number(raw.at),
    actorId: raw.actor_id,
    actor: raw.actor,
    via: raw.via,
    command: raw.command,
    target: raw.target_kind !== null && raw.target_id !== null ? { kind: raw.target_kind, id: raw.target_id } : null,
    summary: raw.summary,
    detail,
  }
}

// Entries of one millisecond are listed in the order they were made: an id sorts by its time, then
// by this process's count, then by chance (two processes in one millisecond).
let made = 0
const auditId = (at: number): string => `${String(Math.max(0, Math.trunc(at))).padStart(15, '0')}-${String(made++ % 1e9).padStart(9, '0')}-${randomBytes(4).toString('hex')}`

export function createAuditStore(engine: SqlEngine): AuditStore {
  const where = (filter: AuditFilter): { sql: string; params: unknown[] } => {
    const clauses: string[] = []
    const params: unknown[] = []
    if (filter.workspaceId !== undefined) {
      clauses.push('workspace_id = ?')
      params.push(filter.workspaceId)
    }
    if (filter.actor !== undefined) {
      clauses.push('lower(actor) = ?')
      params.push(filter.actor.trim().toLowerCase())
    }
    if (filter.command !== undefined) {
      clauses.push('command = ?')
      params.push(filter.command)
    }
    if (filter.since !== undefined) {
      clauses.push('at >= ?')
      params.push(filter.since)
    }
    return { sql: clauses.length ? ` WHERE ${clauses.join(' AND ')}` : '', params }
  }
  return {
    async record(entry) {
      const id = auditId(entry.at)
      const detail = detailText(entry.detail)
      // The summary is written by Hookloop from names and ids, but it passes the same check.
      const summary = entry.summary.slice(0, 300)
      await engine.run(`INSERT INTO audit (${COLUMNS}, workspace_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        id,
        entry.at,
        entry.actorId,
        entry.actor,
        entry.via,
        entry.command,
        entry.target?.kind ?? null,
        entry.target?.id ?? null,
        summary,
        detail,
        entry.workspaceId ?? DEFAULT_WORKSPACE,
      ])
      return fromRaw({ id, at: entry.at, actor_id: entry.actorId, actor: entry.actor, via: entry.via, command: entry.command, target_kind: entry.target?.kind ?? null, target_id: entry.target?.id ?? null, summary, detail_json: detail })
    },
    async list(filter, offset, limit) {
      const { sql, params } = where(filter)
      const total = Number((await engine.get<{ n: number | string }>(`SELECT count(*) AS n FROM audit${sql}`, params))?.n ?? 0)
      const rows = await engine.all<RawAudit>(`SELECT ${COLUMNS} FROM audit${sql} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`, [...params, limit, offset])
      return { entries: rows.map(fromRaw), total }
    },
    async pruneBefore(before, limit) {
      const result = await engine.run('DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE at < ? ORDER BY at LIMIT ?)', [before, limit])
      return result.changes
    },
  }
}
