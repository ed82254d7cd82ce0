// answer_held: a held request answered by hand instead of by its rules, asked of the process that
// holds it (held-asks.ts). --allow-changes.
import { handAnswerSchema } from '../../../shared/receiver'
import { decideHeld } from './held-asks'
import { defineTool } from './context'
import { heldRequestId } from './release-held'

export const answerHeld = defineTool({
  name: 'answer_held',
  title: 'Answer a held request by hand',
  description: 'Answer a held request with this status, headers and body instead of its rules. Needs --allow-changes.',
  changes: true,
  input: { requestId: heldRequestId, answer: handAnswerSchema },
  run: (ctx, { requestId: id, answer }) => decideHeld(ctx, 'answer_held', id, { action: 'answer', answer }),
})
