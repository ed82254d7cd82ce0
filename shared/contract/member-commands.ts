// The contract's commands for the members of a served Hookloop with accounts (docs/team.md,
// "Accounts"), each on the caller's workspace: who they are, an invite for a new one (a one-time
// link, shown once), an existing account added, a role changed, a membership ended, an account
// disabled. An admin's (command-roles.ts). Spread into messages.ts.
import { z } from 'zod'

const role = z.enum(['viewer', 'editor', 'admin'])
const accountId = z.string().min(1).max(100)

export const memberSchemas = {
  'member.list': z.object({}).strict(),
  /** A one-time link that makes an account with this role. */
  'member.invite': z.object({ role }).strict(),
  /** An existing account (by its address) made a member of the workspace with this role. */
  'member.add': z.object({ email: z.string().min(1).max(320), role }).strict(),
  'member.setRole': z.object({ id: accountId, role }).strict(),
  /** The account's membership of the workspace ends; the account and its other workspaces stay. */
  'member.remove': z.object({ id: accountId }).strict(),
  /** A disabled account is signed out everywhere and cannot sign in until enabled again. */
  'member.setDisabled': z.object({ id: accountId, disabled: z.boolean() }).strict(),
} as const

export type MemberCommandName = keyof typeof memberSchemas

export interface MemberView {
  id: string
  email: string
  name: string
  /** The role in the caller's workspace. */
  role: 'viewer' | 'editor' | 'admin'
  createdAt: number
  disabled: boolean
}

export interface MemberResponses {
  'member.list': { members: MemberView[] }
  /** `link` exists only in this answer: the store keeps its hash. */
  'member.invite': { link: string; role: MemberView['role']; expiresAt: number }
  'member.add': MemberView
  'member.setRole': MemberView
  'member.remove': MemberView
  'member.setDisabled': MemberView
}
