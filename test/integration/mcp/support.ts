// `hookloop mcp` as an agent's editor runs it: the built CLI (bin/hookloop.js) spawned by the
// official SDK's StdioClientTransport, spoken to by the SDK's own Client.
import { resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { REPO_ROOT } from '../../support/run-cli'

export const BIN = resolve(REPO_ROOT, 'bin/hookloop.js')

export interface McpSession {
  client: Client
  /** What the server wrote on stderr so far (its log lines). */
  readonly stderr: string
  /** A tool's answer: its text, and whether it was an error. Every text seen is kept in `texts`. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>
  /** A successful answer parsed as JSON; a tool error fails the test with its text. */
  json<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>
  texts: string[]
  close(): Promise<void>
}

/** `hookloop mcp ...args`, in this process's environment with `extraEnv` over it. */
export async function startMcp(args: string[], extraEnv: Record<string, string> = {}): Promise<McpSession> {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string')), ...extraEnv }
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: REPO_ROOT, env, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new Client({ name: 'hookloop-test', version: '1.0.0' })
  await client.connect(transport)
  const texts: string[] = []
  const call = async (name: string, toolArgs: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: toolArgs })
    const content = result.content as { type: string; text?: string }[]
    const text = content.map((c) => c.text ?? '').join('\n')
    texts.push(text)
    return { text, isError: result.isError === true }
  }
  return {
    client,
    get stderr() {
      return stderr
    },
    call,
    async json<T>(name: string, toolArgs: Record<string, unknown> = {}) {
      const { text, isError } = await call(name, toolArgs)
      if (isError) throw new Error(`${name} answered an error: ${text}`)
      return JSON.parse(text) as T
    },
    texts,
    close: () => client.close(),
  }
}
