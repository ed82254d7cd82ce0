// `hookloop mcp [--data DIR | --store STORE] [--allow-changes] [--receiver-url URL]`: an MCP server
// on stdio over the data folder the app uses, or a team's PostgreSQL store, for coding agents
// (docs/mcp.md). It opens the store without an engine: no receiver port and no sender, so it never
// retries the app's in-flight deliveries.
// stdout carries only the protocol; every line for a person goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { ALLOW_CHANGES_FLAG, createMcpServer } from '../engine/mcp'
import { createReceiverPresence, createSqliteEngine, openDatabase, openStore, secretBoxOf, StoreError, type SecretBox, type SqlEngine } from '../engine/store'
import type { Database } from 'better-sqlite3'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import { existingStoreArg, STORE_OPTION } from './store-arg'
import { DEFAULT_LISTEN_PORT } from './listen'
import { UsageError } from './usage-error'

const DEFAULT_RECEIVER_URL = `http://127.0.0.1:${DEFAULT_LISTEN_PORT}`

const USAGE = `Usage: hookloop mcp [--data DIR | --store STORE] [${ALLOW_CHANGES_FLAG}] [--receiver-url URL]

An MCP server on stdin/stdout for coding agents and editors (docs/mcp.md): list endpoints, list
and search captured requests and deliveries, show one (secrets redacted), explain a signature
verdict, run a scenario; with ${ALLOW_CHANGES_FLAG} also trigger a provider event and add or
remove fault rules. It reads the data folder the app and \`hookloop listen\` write, or a team's
PostgreSQL store (--store postgres://…, with its data key as \`hookloop serve\` takes it); there
the rules are changed through \`hookloop serve\` only.
{options}
Exit status: 0 when the client closes stdin, 1 the store cannot be opened, 2 bad usage.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (DIR/hookloop.db; ${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  'allow-changes': { type: 'boolean', help: 'allow the tools that send requests or write rules' },
  'receiver-url': { type: 'string', value: 'URL', help: `where the app's or \`hookloop listen\`'s receiver answers, for endpoint URLs (default: the receiver running on the data folder, else ${DEFAULT_RECEIVER_URL})` },
} as const satisfies OptionSpecs

export const mcpCommand: Command = async (args) => {
  const parsed = commandArgs('mcp', USAGE, args, OPTIONS)
  if (!parsed) return 0
  const v = parsed.values
  const given = v['receiver-url']
  if (given !== undefined && !/^https?:\/\/[^\s/]+\/?$/.test(given)) throw new UsageError(`mcp: --receiver-url must be http(s)://HOST:PORT, got "${given}"`)
  const { location, where } = existingStoreArg('mcp', v)
  const log = (line: string) => void process.stderr.write(`hookloop mcp: ${line}\n`)
  let opened: { store: SqlEngine; secrets: SecretBox; db: Database | null }
  try {
    if (location.kind === 'sqlite') {
      // The data folder's own connection: the rule tools write through its table module, as the app does.
      const db = openDatabase({ file: location.file })
      opened = { store: createSqliteEngine(db, { where, closeDatabase: false }), secrets: secretBoxOf(db), db }
    } else {
      const store = await openStore(location, { notice: log })
      opened = { store: store.engine, secrets: store.secrets, db: null }
    }
  } catch (error) {
    // An MCP client shows a server that exits at once by its stderr: one sentence, no stack.
    if (!(error instanceof StoreError)) throw error
    log(`cannot open ${location.kind === 'sqlite' ? location.file : where}: ${error.message}`)
    return 1
  }
  const { db } = opened
  // Read at each answer: the app, `serve` or `listen` may start (on any port) or stop meanwhile.
  const presence = db ? createReceiverPresence(db) : null
  const receiverUrl = () => given ?? presence?.current()?.url ?? DEFAULT_RECEIVER_URL
  const server = createMcpServer({ dataDir: where, ...opened, allowChanges: v['allow-changes'], receiverUrl, log }, process.env.npm_package_version ?? '0.1.0')
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve
    // The client ends the session by closing our stdin.
    process.stdin.once('end', resolve)
  })
  await server.connect(new StdioServerTransport())
  log(`serving ${where} on stdio (${v['allow-changes'] ? 'changes allowed' : `read-only; ${ALLOW_CHANGES_FLAG} allows changes`})`)
  await closed
  await server.close()
  if (db) db.close()
  else await opened.store.close()
  return 0
}
