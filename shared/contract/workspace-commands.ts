// The contract's commands for the workspaces of a served Hookloop with accounts (docs/team.md,
// "Workspaces"): the caller's workspaces with its role in each and the one it looks at, and a
// session moving to another of its workspaces (a token acts in its one workspace and cannot), and
// an admin making a new one.
// Spread into messages.ts.
import { z } from 'zod'

/** A workspace's name: 1 to 64 characters, no control characters (workspace.create's check). */
export const WORKSPACE_NAME_MAX = 64

export const workspaceSchemas = {
  'workspace.list': z.object({}).strict(),
  'workspace.switch': z.object({ id: z.string().min(1).max(100) }).strict(),
  /** A new workspace, its admin the person who makes it (a session's: a token acts in its own). */
  'workspace.create': z.object({ name: z.string().trim().min(1).max(WORKSPACE_NAME_MAX) }).strict(),
} as const

export type WorkspaceCommandName = keyof typeof workspaceSchemas

/** One of the caller's workspaces, with the caller's role there. */
export interface WorkspaceView {
  id: string
  name: string
  role: 'viewer' | 'editor' | 'admin'
}

export interface WorkspaceResponses {
  /** `current`: the workspace the caller acts in (its session's, or its token's). */
  'workspace.list': { workspaces: WorkspaceView[]; current: string }
  /** The workspace the session looks at from now on; the socket that asked is closed, and the page reloads into it. */
  'workspace.switch': WorkspaceView
  /** The new workspace, the caller its admin; the session stays where it was until it switches. */
  'workspace.create': WorkspaceView
}
