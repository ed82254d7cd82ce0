// `hookloop serve` spawned as a real process from the build (out/main/cli.js), on free ports and
// a temporary data folder. The first line it prints is the URL with the token.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'

export interface Served {
  url: string
  /** http://127.0.0.1:<port> of the webhook receiver. */
  receiverUrl: string
  origin: string
  token: string
  process: ChildProcess
  dataDir: string
  output: string[]
  stop(): Promise<void>
}

export const CLI = resolve('out/main/cli.js')

export interface ServeOptions {
  /** A data folder the caller owns (kept on stop); default: a fresh one, removed on stop. */
  dataDir?: string
  /** Pass no --data: the folder comes from the environment (HOOKLOOP_DATA …), as for a user. */
  dataFromEnv?: boolean
  env?: NodeJS.ProcessEnv
}

export async function startServe(extraArgs: string[] = [], options: ServeOptions = {}): Promise<Served> {
  const owned = options.dataDir === undefined
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'hookloop-serve-'))
  const dataArgs = options.dataFromEnv ? [] : ['--data', dataDir]
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...dataArgs, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env })
  const output: string[] = []
  const lines = createInterface({ input: child.stdout! })
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  // Collect every line from the start: readline can emit several in one tick.
  const stdoutLines: string[] = []
  const waiters: (() => void)[] = []
  lines.on('line', (line) => {
    stdoutLines.push(line)
    output.push(line)
    for (const wake of waiters.splice(0)) wake()
  })
  let exitedEarly: Error | null = null
  child.once('exit', (code) => {
    exitedEarly = new Error(`hookloop serve exited (${code}) before it was ready: ${output.join('')}`)
    for (const wake of waiters.splice(0)) wake()
  })
  const lineMatching = async (test: (line: string) => boolean): Promise<string> => {
    for (;;) {
      const found = stdoutLines.find(test)
      if (found !== undefined) return found
      if (exitedEarly) throw exitedEarly
      await new Promise<void>((wake) => waiters.push(wake))
    }
  }
  const first = await lineMatching(() => true)
  const receiverLine = await lineMatching((line) => line.startsWith('Webhook receiver: '))
  const receiverUrl = /Webhook receiver: (http:\/\/[^/\s]+)/.exec(receiverLine)?.[1] ?? ''
  const url = new URL(first)
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? ''
  return {
    url: first,
    receiverUrl,
    origin: url.origin,
    token,
    process: child,
    dataDir,
    output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      if (owned) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
