// drop_held: a held request's connection closed without an answer, asked of the process that holds
// it (held-asks.ts). --allow-changes.
import { decideHeld } from './held-asks'
import { defineTool } from './context'
import { heldRequestId } from './release-held'

export const dropHeld = defineTool({
  name: 'drop_held',
  title: 'Drop a held request',
  description: 'Close a held request\'s connection without an answer (its sender sees the connection end). Needs --allow-changes.',
  changes: true,
  input: { requestId: heldRequestId },
  run: (ctx, { requestId: id }) => decideHeld(ctx, 'drop_held', id, { action: 'drop' }),
})
