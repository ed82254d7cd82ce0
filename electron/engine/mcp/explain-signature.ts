// explain_signature: why a captured request's signature passed or failed, as the source explains
// it (host/signature-explain.ts: the stored verdict and the check run again with the endpoint's
// current secrets; a served Hookloop runs it itself, `request.explainSignature`).
import { z } from 'zod'
import { defineTool } from './context'

export const explainSignature = defineTool({
  name: 'explain_signature',
  title: "Explain a request's signature verdict",
  description:
    "Why a captured request's signature passed or failed: the verdict stored on arrival (reason, detail, the signature computed vs the one received, shortened), the endpoint's scheme and timestamp tolerance, the check run again now with the endpoint's current secrets, and the fix.",
  changes: false,
  input: { requestId: z.number().int().positive().describe('captured request id') },
  async run(ctx, { requestId }) {
    return ctx.stored('request', requestId, await ctx.source.explainSignature(requestId))
  },
})
