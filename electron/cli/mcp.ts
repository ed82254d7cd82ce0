// `hookloop mcp [--data DIR | --store STORE | --server URL] [--allow-changes] [--receiver-url URL]`:
// an MCP server on stdio over the data folder the app uses, a team's PostgreSQL store, or a served
// Hookloop read with an API token, for coding agents (docs/mcp.md). It opens a store without an
// engine: no receiver port and no sender, so it never retries the app's in-flight deliveries.
// stdout carries only the protocol; every line for a person goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { HOOKLOOP_VERSION } from '../engine/exports'
import { ALLOW_CHANGES_FLAG, createMcpServer, createServerSource, createStoreSource, type McpSource } from '../engine/mcp'
import { createReceiverPresence, createSqliteEngine, openDatabase, openStore, secretBoxOf, StoreError } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import { connectServer, SERVER_OPTIONS, ServerError, serverArg } from './server-arg'
import { existingStoreArg, STORE_OPTION } from './store-arg'
import { DEFAULT_LISTEN_PORT } from './listen'
import { UsageError } from './usage-error'

const DEFAULT_RECEIVER_URL = `http://127.0.0.1:${DEFAULT_LISTEN_PORT}`

const USAGE = `Usage: hookloop mcp [--data DIR | --store STORE | --server URL] [${ALLOW_CHANGES_FLAG}] [--receiver-url URL]

An MCP server on stdin/stdout for coding agents and editors (docs/mcp.md): list endpoints, list
and search captured requests and deliveries, show one (secrets redacted), explain a signature
verdict, run a scenario; with ${ALLOW_CHANGES_FLAG} also trigger a provider event and add or
remove fault rules. It reads the data folder the app and \`hookloop listen\` write, or a team's
PostgreSQL store (--store postgres://…, with its data key as \`hookloop serve\` takes it); there
the rules are changed through \`hookloop serve\` only. With --server URL (an API token in
$HOOKLOOP_TOKEN) it reads a served Hookloop (\`hookloop serve --accounts\`) and changes rules
and held requests through it, as the token's role allows; what needs the store's own bytes or
secrets (explain_signature, trigger_event to an endpoint) refuses there.
{options}
Exit status: 0 when the client closes stdin, 1 the store cannot be opened or the server refused, 2 bad usage.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (DIR/hookloop.db; ${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  ...SERVER_OPTIONS,
  'allow-changes': { type: 'boolean', help: 'allow the tools that send requests or write rules' },
  'receiver-url': { type: 'string', value: 'URL', help: `where the app's or \`hookloop listen\`'s receiver answers, for endpoint URLs (default: the receiver running on the data folder, else ${DEFAULT_RECEIVER_URL})` },
} as const satisfies OptionSpecs

export const mcpCommand: Command = async (args) => {
  const parsed = commandArgs('mcp', USAGE, args, OPTIONS)
  if (!parsed) return 0
  const v = parsed.values
  const given = v['receiver-url']
  if (given !== undefined && !/^https?:\/\/[^\s/]+\/?$/.test(given)) throw new UsageError(`mcp: --receiver-url must be http(s)://HOST:PORT, got "${given}"`)
  const log = (line: string) => void process.stderr.write(`hookloop mcp: ${line}\n`)
  const server = serverArg('mcp', args, v)
  if (server && given !== undefined) throw new UsageError('mcp: --receiver-url is for a store; a served Hookloop says where its receiver answers')
  let source: McpSource
  try {
    source = server ? createServerSource(await connectServer(server.url, server.token)) : await storeSource(v, given, log)
  } catch (error) {
    // An MCP client shows a server that exits at once by its stderr: one sentence, no stack.
    if (!(error instanceof StoreError) && !(error instanceof ServerError)) throw error
    log(error.message)
    return 1
  }
  const mcp = createMcpServer({ source, allowChanges: v['allow-changes'], log }, HOOKLOOP_VERSION)
  const closed = new Promise<void>((resolve) => {
    mcp.server.onclose = resolve
    // The client ends the session by closing our stdin.
    process.stdin.once('end', resolve)
  })
  await mcp.connect(new StdioServerTransport())
  log(`serving ${source.where} on stdio (${v['allow-changes'] ? 'changes allowed' : `read-only; ${ALLOW_CHANGES_FLAG} allows changes`})`)
  await closed
  await mcp.close()
  await source.close()
  return 0
}

/** The data folder or team store named (or the default folder), opened without an engine. */
async function storeSource(values: { data?: string | undefined; store?: string | undefined }, given: string | undefined, log: (line: string) => void): Promise<McpSource> {
  const { location, where } = existingStoreArg('mcp', values)
  try {
    if (location.kind === 'sqlite') {
      // The data folder's own connection: the rule tools write through its table module, as the app does.
      const db = openDatabase({ file: location.file })
      // Read at each answer: the app, `serve` or `listen` may start (on any port) or stop meanwhile.
      const presence = createReceiverPresence(db)
      const receiverUrl = () => given ?? presence.current()?.url ?? DEFAULT_RECEIVER_URL
      return createStoreSource({ where, store: createSqliteEngine(db, { where, closeDatabase: false }), secrets: secretBoxOf(db), db, receiverUrl })
    }
    const store = await openStore(location, { notice: log })
    return createStoreSource({ where, store: store.engine, secrets: store.secrets, db: null, receiverUrl: () => given ?? DEFAULT_RECEIVER_URL })
  } catch (error) {
    if (error instanceof StoreError) throw new StoreError(error.code, `cannot open ${location.kind === 'sqlite' ? location.file : where}: ${error.message}`)
    throw error
  }
}
