// The audit's command (docs/team.md, "Audit"): an admin reads who changed what, and when, newest
// first. Each change is recorded by the control server's dispatch (engine/host/audit-record.ts)
// and by the account pages; the detail never holds a secret (each is REDACTED, as in exports). Spread into messages.ts.
import { z } from 'zod'

export const AUDIT_VIA = ['session', 'token', 'cli', 'app'] as const
export type AuditVia = (typeof AUDIT_VIA)[number]

/** The actor of a change made without accounts: the desktop app, a CLI on a folder, a served Hookloop without `--accounts`. */
export const LOCAL_ACTOR = 'local'

export const auditSchemas = {
  'audit.list': z
    .object({
      /** An account's address (any case), or `local`. */
      actor: z.string().min(1).max(320).optional(),
      command: z.string().min(1).max(100).optional(),
      /** Wall-clock ms: changes at or after it. */
      since: z.number().int().nonnegative().optional(),
      offset: z.number().int().nonnegative().max(1_000_000).default(0),
      limit: z.number().int().min(1).max(500).default(100),
    })
    .strict(),
} as const

export type AuditCommandName = keyof typeof auditSchemas

export interface AuditView {
  id: string
  /** Wall-clock ms (never a simulated time). */
  at: number
  actorId: string | null
  /** The account's address, or `local`. */
  actor: string
  via: AuditVia
  command: string
  target: { kind: string; id: string } | null
  summary: string
  /** What changed, each secret replaced by REDACTED. */
  detail: unknown
}

export interface AuditResponses {
  'audit.list': { entries: AuditView[]; total: number }
}
