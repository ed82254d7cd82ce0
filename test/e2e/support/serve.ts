// `hookloop serve` spawned as a real process from the build (out/main/cli.js), on free ports and
// a temporary data folder. The first line it prints is the URL with the token.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'

export interface Served {
  url: string
  origin: string
  token: string
  process: ChildProcess
  dataDir: string
  output: string[]
  stop(): Promise<void>
}

export const CLI = resolve('out/main/cli.js')

export async function startServe(extraArgs: string[] = []): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hookloop-serve-'))
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', dataDir, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] })
  const output: string[] = []
  const lines = createInterface({ input: child.stdout! })
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  const first = await new Promise<string>((resolvePromise, reject) => {
    lines.once('line', resolvePromise)
    child.once('exit', (code) => reject(new Error(`hookloop serve exited (${code}) before printing its URL: ${output.join('')}`)))
  })
  lines.on('line', (line) => output.push(line))
  const url = new URL(first)
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? ''
  return {
    url: first,
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
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
