// bench:team's `hookloop serve` processes (from the build, out/main/cli.js): on a data folder or on
// a team's PostgreSQL (its URL by the environment, as docs/team.md advises), with accounts or
// without; and the API token a machine holds on one with accounts (`hookloop token create`). The
// live client on either: scale-control.ts's `connect`.
import { spawn, spawnSync } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { openStore, parseStoreLocation } from '../../electron/engine/store'
import type { Served } from './scale-control'

const CLI = resolve('out/main/cli.js')

export interface ServeOptions {
  /** The team store's data key file, for a postgres:// store. */
  keyFile?: string
  /** People sign in (`--accounts`): the live client then holds an API token. */
  accounts?: boolean
  /** Node's flags for the process (`--cpu-prof`…); the engine it forks runs with them too. */
  execArgv?: string[]
}

/** `where` is a data folder's hookloop.db (team-stores.ts) or a postgres:// URL. */
export async function serveOn(where: string, options: ServeOptions = {}): Promise<Served> {
  const team = where.startsWith('postgres://')
  const args = ['serve', '--port', '0', ...(team ? [] : ['--data', dirname(where)]), ...(options.accounts ? ['--accounts'] : [])]
  const env = { ...process.env, ...(team ? { HOOKLOOP_STORE: where, HOOKLOOP_SECRET_KEY_FILE: options.keyFile ?? '' } : {}) }
  const child = spawn(process.execPath, [...(options.execArgv ?? []), CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env })
  const lines: string[] = []
  await new Promise<void>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line)
      if (line.startsWith('Webhook receiver: ')) done()
    })
    child.once('exit', (code) => fail(new Error(`hookloop serve exited (${code})`)))
  })
  return { child, url: lines[0] ?? '', receiverUrl: /Webhook receiver: (http:\/\/[^/\s]+)/.exec(lines.join('\n'))?.[1] ?? '' }
}

/** An API token of `role` made on the store `where` (made first if new: `token create` wants one), its secret. */
export async function createApiToken(where: string, role: 'viewer' | 'editor', keyFile?: string): Promise<string> {
  const team = where.startsWith('postgres://')
  await (await openStore(parseStoreLocation(where), { notice: () => undefined, ...(keyFile ? { postgresKey: { file: keyFile } } : {}) })).engine.close()
  const made = spawnSync(process.execPath, [CLI, 'token', 'create', '--name', 'bench', '--role', role, ...(team ? ['--store', where] : ['--data', dirname(where)])], {
    encoding: 'utf8',
    env: { ...process.env, ...(keyFile ? { HOOKLOOP_SECRET_KEY_FILE: keyFile } : {}) },
  })
  if (made.status !== 0) throw new Error(`hookloop token create failed: ${made.stderr}`)
  return made.stdout.trim()
}
