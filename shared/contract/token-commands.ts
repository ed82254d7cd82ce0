// The contract's commands for the API tokens of a served Hookloop with accounts (docs/team.md,
// "Tokens"): the tokens machines (CI, scripts, agents) use, each with a role in one workspace (the
// one it was made in; the lists and revocations are the caller's workspace's); a new one's secret
// is in create's answer only; a revoked one admits nobody. An admin's (command-roles.ts). Spread
// into messages.ts.
import { z } from 'zod'

const role = z.enum(['viewer', 'editor', 'admin'])

export const tokenSchemas = {
  /** Every token, revoked ones too, newest first. */
  'token.list': z.object({}).strict(),
  'token.create': z.object({ name: z.string().trim().min(1).max(100), role }).strict(),
  'token.revoke': z.object({ id: z.string().min(1).max(100) }).strict(),
} as const

export type TokenCommandName = keyof typeof tokenSchemas

/** A token as the list shows it: never its secret, nor the secret's hash. */
export interface TokenView {
  id: string
  name: string
  /** Its role in its workspace. */
  role: 'viewer' | 'editor' | 'admin'
  /** The one workspace it acts in. */
  workspaceId: string
  /** The secret's first characters (`hlk_` and six more), to tell tokens apart. */
  prefix: string
  /** The admin who made it; null when made on the server's machine (`hookloop token create`). */
  createdBy: string | null
  createdByEmail: string | null
  createdAt: number
  /** Wall time of its last use, written at most once a minute; null when never used. */
  lastUsedAt: number | null
  revokedAt: number | null
}

export interface TokenResponses {
  'token.list': { tokens: TokenView[] }
  /** `secret` exists only in this answer: the store keeps its hash. */
  'token.create': { token: TokenView; secret: string }
  'token.revoke': TokenView
}
