// `hookloop mcp [--data DIR] [--allow-changes] [--receiver-url URL]`: an MCP server on stdio over
// the data folder the app uses, for coding agents (docs/mcp.md). It opens the store without an
// engine: no receiver port and no sender, so it never retries the app's in-flight deliveries.
// stdout carries only the protocol; every line for a person goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { ALLOW_CHANGES_FLAG, createMcpServer } from '../engine/mcp'
import { createReceiverPresence, openDatabase, StoreError } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { DATA_DIR_DEFAULT_HELP, existingStoreFile } from './data-dir-arg'
import { DEFAULT_LISTEN_PORT } from './listen'
import { UsageError } from './usage-error'

const DEFAULT_RECEIVER_URL = `http://127.0.0.1:${DEFAULT_LISTEN_PORT}`

const USAGE = `Usage: hookloop mcp [--data DIR] [${ALLOW_CHANGES_FLAG}] [--receiver-url URL]

An MCP server on stdin/stdout for coding agents and editors (docs/mcp.md): list endpoints, list
and search captured requests and deliveries, show one (secrets redacted), explain a signature
verdict, run a scenario; with ${ALLOW_CHANGES_FLAG} also trigger a provider event and add or
remove fault rules. It reads the data folder the app and \`hookloop listen\` write.
{options}
Exit status: 0 when the client closes stdin, 1 the data folder cannot be opened, 2 bad usage.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (DIR/hookloop.db; ${DATA_DIR_DEFAULT_HELP})` },
  'allow-changes': { type: 'boolean', help: 'allow the tools that send requests or write rules' },
  'receiver-url': { type: 'string', value: 'URL', help: `where the app's or \`hookloop listen\`'s receiver answers, for endpoint URLs (default: the receiver running on the data folder, else ${DEFAULT_RECEIVER_URL})` },
} as const satisfies OptionSpecs

export const mcpCommand: Command = async (args) => {
  const parsed = commandArgs('mcp', USAGE, args, OPTIONS)
  if (!parsed) return 0
  const v = parsed.values
  const given = v['receiver-url']
  if (given !== undefined && !/^https?:\/\/[^\s/]+\/?$/.test(given)) throw new UsageError(`mcp: --receiver-url must be http(s)://HOST:PORT, got "${given}"`)
  const { dataDir, file } = existingStoreFile('mcp', v.data)
  const log = (line: string) => void process.stderr.write(`hookloop mcp: ${line}\n`)
  let db
  try {
    db = openDatabase({ file })
  } catch (error) {
    // An MCP client shows a server that exits at once by its stderr: one sentence, no stack.
    if (!(error instanceof StoreError)) throw error
    log(`cannot open ${file}: ${error.message}`)
    return 1
  }
  // Read at each answer: the app, `serve` or `listen` may start (on any port) or stop meanwhile.
  const presence = createReceiverPresence(db)
  const receiverUrl = () => given ?? presence.current()?.url ?? DEFAULT_RECEIVER_URL
  const server = createMcpServer({ dataDir, db, allowChanges: v['allow-changes'], receiverUrl, log }, process.env.npm_package_version ?? '0.1.0')
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve
    // The client ends the session by closing our stdin.
    process.stdin.once('end', resolve)
  })
  await server.connect(new StdioServerTransport())
  log(`serving ${dataDir} on stdio (${v['allow-changes'] ? 'changes allowed' : `read-only; ${ALLOW_CHANGES_FLAG} allows changes`})`)
  await closed
  await server.close()
  db.close()
  return 0
}
