// `hookloop mcp`: an MCP server over one store or one served Hookloop (context.ts, its source). The catalog of its tools (one file each) and
// the one place that turns a tool's answer or refusal into an MCP result: answers as JSON text with
// every known secret blanked, refusals and bad inputs as tool errors (isError) in a sentence.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { ZodError } from 'zod'
import { StoreError } from '../store'
import { addFaultRule } from './add-fault-rule'
import { answerText, sentenceText } from './answer-text'
import { createMcpContext, ToolError, type McpContext, type McpServerOptions, type McpSource, type ToolDefinition } from './context'
import { explainSignature } from './explain-signature'
import { listEndpoints } from './list-endpoints'
import { listRows } from './list-rows'
import { listHeld } from './list-held'
import { releaseHeld } from './release-held'
import { answerHeld } from './answer-held'
import { dropHeld } from './drop-held'
import { removeFaultRule } from './remove-fault-rule'
import { runScenarioTool } from './run-scenario'
import { showDelivery } from './show-delivery'
import { showRequest } from './show-request'
import { triggerEvent } from './trigger-event'

export { ToolError, type McpServerOptions, type McpSource }
export { createStoreSource, type StoreSourceOptions } from './store-source'
export { createServerSource, type ServerCommands } from './server-source'

/** Every tool, listed always; the ones that change anything refuse without --allow-changes. */
export const MCP_TOOLS: readonly ToolDefinition[] = [
  listEndpoints,
  listRows,
  showRequest,
  showDelivery,
  explainSignature,
  triggerEvent,
  runScenarioTool,
  addFaultRule,
  removeFaultRule,
  listHeld,
  releaseHeld,
  answerHeld,
  dropHeld,
] as unknown as readonly ToolDefinition[]

export const ALLOW_CHANGES_FLAG = '--allow-changes'

const failure = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true })

/** An error as one sentence for the agent: ours as written, anything else by its message alone (no stack). */
function errorText(tool: string, error: unknown): string {
  if (error instanceof ToolError) return `${tool}: ${error.message}`
  if (error instanceof ZodError) return `${tool}: ${error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`
  if (error instanceof StoreError) return `${tool}: the store could not be read: ${error.message}`
  return `${tool} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
}

async function call(ctx: McpContext, tool: ToolDefinition, args: unknown): Promise<CallToolResult> {
  if (tool.changes && !ctx.options.allowChanges) {
    return failure(`${tool.name} changes things (it writes to the data folder or sends requests), and this server was started read-only: add ${ALLOW_CHANGES_FLAG} to the hookloop mcp command (its "args" in the MCP configuration) to allow it`)
  }
  try {
    const value = await tool.run(ctx, args as never)
    return { content: [{ type: 'text', text: answerText(value, await ctx.source.secrets()) }] }
  } catch (error) {
    if (!(error instanceof ToolError)) ctx.options.log(`${tool.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return failure(sentenceText(errorText(tool.name, error), await ctx.source.secrets().catch(() => [])))
  }
}

export function createMcpServer(options: McpServerOptions, version: string): McpServer {
  const ctx = createMcpContext(options)
  const server = new McpServer(
    { name: 'hookloop', version },
    {
      instructions:
        'Hookloop captures webhook requests, sends provider events under retry policies and injects faults. Start with list_endpoints and list_rows; show_request, show_delivery and explain_signature take the ids list_rows gives.',
    },
  )
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: !tool.changes, destructiveHint: tool.name === 'remove_fault_rule' || tool.name === 'drop_held', openWorldHint: tool.name === 'trigger_event' || tool.name === 'run_scenario' },
      },
      (args: unknown) => call(ctx, tool, args),
    )
  }
  return server
}
