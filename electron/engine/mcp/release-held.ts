// release_held: a held request goes on, as it came or edited, asked of the process that holds it
// (held-asks.ts). It changes what a sender (or an app) gets: --allow-changes.
import { z } from 'zod'
import { holdEditSchema } from '../../../shared/receiver'
import { decideHeld } from './held-asks'
import { defineTool } from './context'

export const heldRequestId = z.number().int().positive().describe('the held request\'s id (list_held)')

export const releaseHeld = defineTool({
  name: 'release_held',
  title: 'Release a held request',
  description: 'Let a held request go on to the endpoint\'s rules (or its app, in forward mode): as it came, or edited — headers set or removed, a new body, the answer\'s status (a plain reply only), re-signed with the endpoint\'s secret. Needs --allow-changes.',
  changes: true,
  input: { requestId: heldRequestId, edit: holdEditSchema.optional().describe('what to change before it goes on') },
  run: (ctx, { requestId: id, edit }) => decideHeld(ctx, 'release_held', id, { action: 'release', ...(edit ? { edit } : {}) }),
})
