// bench:scale's and bench:ui's way into a running `hookloop serve`: the process (its URL, receiver, the engine's
// process id for RSS) and the control socket the UI uses, to time commands exactly as it sends them.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import WebSocket from 'ws'

export interface Served {
  child: ChildProcess
  url: string
  receiverUrl: string
}

export async function serve(dataDir: string): Promise<Served> {
  const child = spawn(process.execPath, [resolve('out/main/cli.js'), 'serve', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines: string[] = []
  const rl = createInterface({ input: child.stdout! })
  await new Promise<void>((done, fail) => {
    rl.on('line', (line) => {
      lines.push(line)
      if (lines.some((l) => l.startsWith('Webhook receiver: '))) done()
    })
    child.once('exit', (code) => fail(new Error(`hookloop serve exited (${code})`)))
  })
  const receiverUrl = /Webhook receiver: (http:\/\/[^/\s]+)/.exec(lines.join('\n'))?.[1] ?? ''
  return { child, url: lines[0] ?? '', receiverUrl }
}

export async function stop(served: Served): Promise<void> {
  if (served.child.exitCode !== null) return
  const exited = new Promise((r) => served.child.once('exit', r))
  served.child.kill('SIGTERM')
  await exited
}

/** The engine's process: `serve` forks it (electron/cli/serve.ts). */
export function enginePid(served: Served): number {
  const pid = served.child.pid!
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  if (children.length !== 1) throw new Error(`expected one engine process under hookloop serve (${pid}), found ${children.length}`)
  return children[0]!
}

/** The engine's resident memory now and at its peak, in MB. */
export function engineMemory(served: Served): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${enginePid(served)}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }
}

export interface Control {
  call<T = unknown>(name: string, req: unknown): Promise<T>
  /** Every batch of pushed events, as the UI receives them. */
  onEvents(listener: (batch: Array<{ name: string; payload: unknown }>) => void): void
  close(): void
}

/**
 * With the run's token from the printed address (Origin ours, as a page sends it), or with an API
 * token of a server with accounts (a machine: no Origin, a Bearer header).
 */
export async function connect(served: Served, apiToken?: string): Promise<Control> {
  const { origin, hash } = new URL(served.url)
  const token = new URLSearchParams(hash.slice(1)).get('token') ?? ''
  const socket = `${origin.replace('http', 'ws')}/control`
  const ws = apiToken ? new WebSocket(socket, { headers: { authorization: `Bearer ${apiToken}` } }) : new WebSocket(`${socket}?token=${token}`, { headers: { origin } })
  await new Promise((r, fail) => {
    ws.once('open', r)
    ws.once('error', fail)
  })
  const waiting = new Map<number, { done(res: unknown): void; fail(error: Error): void }>()
  const listeners: Array<(batch: Array<{ name: string; payload: unknown }>) => void> = []
  let next = 1
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { t: string; id?: number; ok?: boolean; res?: unknown; error?: { message: string }; batch?: Array<{ name: string; payload: unknown }> }
    if (frame.t === 'events' && frame.batch) for (const listener of listeners) listener(frame.batch)
    if (frame.t !== 'res' || frame.id === undefined) return
    const w = waiting.get(frame.id)
    waiting.delete(frame.id)
    if (frame.ok) w?.done(frame.res)
    else w?.fail(new Error(frame.error?.message ?? 'command failed'))
  })
  return {
    call<T>(name: string, req: unknown): Promise<T> {
      const id = next++
      return new Promise<T>((done, fail) => {
        waiting.set(id, { done: done as (res: unknown) => void, fail })
        ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
      })
    },
    onEvents: (listener) => void listeners.push(listener),
    close: () => ws.close(),
  }
}
