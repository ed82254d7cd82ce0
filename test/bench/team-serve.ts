// bench:team's `hookloop serve` processes (from the build, out/main/cli.js): on a data folder or on
// a team's PostgreSQL (its URL by the environment, as docs/team.md advises), with accounts or
// without; and the live client a browser holds on one (the run's token) or a machine (an API
// token, `hookloop token create`), over the app's own control socket.
import { spawn, spawnSync } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import WebSocket from 'ws'
import { CONTROL_PATH } from '../../shared/contract'
import { openStore, parseStoreLocation } from '../../electron/engine/store'
import type { Control, Served } from './scale-control'

const CLI = resolve('out/main/cli.js')

export interface ServeOptions {
  /** The team store's data key file, for a postgres:// store. */
  keyFile?: string
  /** People sign in (`--accounts`): the live client then holds an API token. */
  accounts?: boolean
}

/** `where` is a data folder's hookloop.db (bench-stores.ts) or a postgres:// URL. */
export async function serveOn(where: string, options: ServeOptions = {}): Promise<Served> {
  const team = where.startsWith('postgres://')
  const args = ['serve', '--port', '0', ...(team ? [] : ['--data', dirname(where)]), ...(options.accounts ? ['--accounts'] : [])]
  const env = { ...process.env, ...(team ? { HOOKLOOP_STORE: where, HOOKLOOP_SECRET_KEY_FILE: options.keyFile ?? '' } : {}) }
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env })
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

/**
 * The control socket as the app uses it: with the run's token from the printed address (Origin
 * ours, as a page sends it), or with an API token (a machine: no Origin, a Bearer header).
 */
export async function liveClient(served: Served, apiToken?: string): Promise<Control> {
  const { origin, hash } = new URL(served.url)
  const socket = `${origin.replace('http', 'ws')}${CONTROL_PATH}`
  const ws = apiToken
    ? new WebSocket(socket, { headers: { authorization: `Bearer ${apiToken}` } })
    : new WebSocket(`${socket}?token=${new URLSearchParams(hash.slice(1)).get('token') ?? ''}`, { headers: { origin } })
  await new Promise((opened, fail) => {
    ws.once('open', opened)
    ws.once('error', fail)
  })
  const waiting = new Map<number, { done(res: unknown): void; fail(error: Error): void }>()
  const listeners: Array<(batch: Array<{ name: string; payload: unknown }>) => void> = []
  let next = 1
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { t: string; id?: number; ok?: boolean; res?: unknown; error?: { message: string }; batch?: Array<{ name: string; payload: unknown }> }
    if (frame.t === 'events' && frame.batch) for (const listener of listeners) listener(frame.batch)
    if (frame.t !== 'res' || frame.id === undefined) return
    const pending = waiting.get(frame.id)
    waiting.delete(frame.id)
    if (frame.ok) pending?.done(frame.res)
    else pending?.fail(new Error(frame.error?.message ?? 'command failed'))
  })
  return {
    call: <T>(name: string, req: unknown) =>
      new Promise<T>((done, fail) => {
        const id = next++
        waiting.set(id, { done: done as (res: unknown) => void, fail })
        ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
      }),
    onEvents: (listener) => void listeners.push(listener),
    close: () => ws.close(),
  }
}
