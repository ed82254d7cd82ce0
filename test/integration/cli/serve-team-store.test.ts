// Two `hookloop serve --store postgres://…` processes from the build on one database, each with
// its own receiver: a request captured by A reaches B's timeline through B's control server, as a
// browser on B gets it (pushed timeline rows, LISTEN/NOTIFY between the processes), and both count
// the same. The lag from A's answer to B's push is measured and printed, never asserted.
import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import type { ServerFrame, TimelineRow } from '../../../shared/contract'
import { usePostgres } from '../../support/use-postgres'
import { makeTempDir } from '../../support/temp-dir'
import { connectControlAt } from '../host/support/control-client'

const CLI = resolve('out/main/cli.js')
const REQUESTS = 300
/** How long one request may take to show in the other process before the test says which one did not. */
const BOUND_MS = 10_000

const postgres = usePostgres()
const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  while (stops.length > 0) await stops.pop()?.()
})

interface Served {
  origin: string
  token: string
  receiverUrl: string
  stderr: () => string
}

/** `hookloop serve` on the team's store; the URL comes by the environment, as the docs advise (argv shows in ps). */
async function serveOn(url: string, keyFile: string): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOOKLOOP_STORE: url, HOOKLOOP_SECRET_KEY_FILE: keyFile },
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  stops.push(async () => {
    child.kill('SIGTERM')
    await exited
  })
  const lines = createInterface({ input: child.stdout! })
  const out: string[] = []
  await new Promise<void>((done, fail) => {
    lines.on('line', (line) => {
      out.push(line)
      if (line.startsWith('Webhook receiver: ')) done()
    })
    void exited.then(() => fail(new Error(`serve exited: ${stderr}`)))
  })
  const open = new URL(out[0] ?? '')
  return { origin: open.origin, token: open.hash.replace('#token=', ''), receiverUrl: /Webhook receiver: (\S+)\/h\/<endpoint>/.exec(out.join('\n'))?.[1] ?? '', stderr: () => stderr }
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN

describe('hookloop serve on a team PostgreSQL', () => {
  it('a request captured by one process is pushed live to the other process timeline, and both count it', async () => {
    const url = await postgres.freshDatabase()
    const { dir, cleanup } = makeTempDir()
    stops.push(async () => cleanup())
    const keyFile = resolve(dir, 'team.key')
    const a = await serveOn(url, keyFile)
    const b = await serveOn(url, keyFile)
    const onA = await connectControlAt(a.origin, a.token)
    const onB = await connectControlAt(b.origin, b.token)
    stops.push(async () => (onA.ws.close(), onB.ws.close()))
    // The endpoint made on A: B's definitions watch hears it too.
    await onA.call('endpoint.create', { name: 'team', slug: 'team', scheme: null, secrets: [], dedupe: null })

    const rowsOnB = new Set<string>()
    let seen: (() => void) | null = null
    onB.ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as ServerFrame
      if (frame.t !== 'events') return
      for (const event of frame.batch) {
        if (event.name !== 'timeline.upsert') continue
        for (const row of (event.payload as { rows: TimelineRow[] }).rows) if (row.kind === 'received') rowsOnB.add(row.key)
      }
      seen?.()
    })

    const lags: number[] = []
    for (let i = 1; i <= REQUESTS; i++) {
      const answered = await fetch(`${a.receiverUrl}/h/team`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: i }) })
      expect(answered.status).toBe(200)
      await answered.arrayBuffer()
      const at = performance.now()
      if (rowsOnB.size < i) {
        const arrived = await new Promise<boolean>((done) => {
          const timer = setTimeout(() => done(false), BOUND_MS)
          seen = () => {
            if (rowsOnB.size < i) return
            clearTimeout(timer)
            done(true)
          }
        })
        seen = null
        expect(arrived, `request ${i} captured by A did not reach B's timeline (B's log: ${b.stderr()})`).toBe(true)
      }
      lags.push(performance.now() - at)
    }

    const pageA = await onA.call('timeline.page', { offset: 0, limit: 10 })
    const pageB = await onB.call('timeline.page', { offset: 0, limit: 10 })
    expect(pageB.total).toBe(REQUESTS)
    expect(pageA.total).toBe(pageB.total)
    const sorted = [...lags].sort((x, y) => x - y)
    process.stdout.write(`serve on a team store: capture on A -> row pushed by B over ${REQUESTS} requests: p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms\n`)
  }, 240_000)
})
