// `hookloop listen --break MATCH`: a breakpoint for this session, held in this terminal. Each held
// request is printed whole, then one prompt: release it, edit it in $EDITOR (headers, a blank line,
// the body; re-signed when the endpoint can be) and release it, answer it with a status, or drop
// it. Many may be held at once: they wait their turn in arrival order, each under its own limit;
// one its limit (or another window) released leaves the prompt. Without a terminal there is nobody
// to answer the prompt, so --break refuses to start.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { DefinitionError, explainBreakpoint, explainHold, parseBreakMatch, type Breakpoint, type HeldRequest, type HoldDecision, type ReceiverEvent } from '../../shared/receiver'
import type { Receiver } from '../engine/receiver'
import { UsageError } from './usage-error'

/** Refuses --break where no person can answer its prompt. */
export function checkBreakTerminal(match: string | undefined, terminal: { stdin: boolean; stdout: boolean }): void {
  if (match === undefined) return
  if (!terminal.stdin || !terminal.stdout) {
    throw new UsageError('--break holds each matching request until you act on it at a prompt, and this is not a terminal (stdin or stdout is redirected): run it in a terminal, or add the breakpoint in the app (Breakpoints) and act with `hookloop mcp` (list_held, release_held)')
  }
  try {
    parseBreakMatch(match)
  } catch (error) {
    if (error instanceof DefinitionError) throw new UsageError(`--break: ${error.message}`)
    throw error
  }
}

/** What the editor shows: the headers, a blank line, the body; read back the same way. */
const editable = (held: HeldRequest) => `${held.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n\n${held.body}`
function readEdited(text: string): { headers: [string, string][]; body: string } {
  const split = text.indexOf('\n\n')
  const head = split === -1 ? text : text.slice(0, split)
  const body = split === -1 ? '' : text.slice(split + 2)
  const headers = head
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line): [string, string] => {
      const colon = line.indexOf(':')
      return colon === -1 ? [line.trim(), ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
    })
  return { headers, body }
}

function editInEditor(held: HeldRequest): HoldDecision | null {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi'
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-held-'))
  const file = join(dir, `request-${held.requestId}.http`)
  try {
    writeFileSync(file, editable(held))
    const ran = spawnSync(editor, [file], { stdio: 'inherit', shell: true })
    if (ran.status !== 0) return null
    const { headers, body } = readEdited(readFileSync(file, 'utf8'))
    const names = new Set(headers.map(([n]) => n.toLowerCase()))
    return {
      action: 'release',
      edit: {
        headers,
        removeHeaders: [...new Set(held.headers.map(([n]) => n).filter((n) => !names.has(n.toLowerCase())))],
        ...(body !== held.body ? { body } : {}),
        ...(held.canResign ? { resign: true } : {}),
      },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Puts the session's breakpoint and acts on what it holds at a prompt; returns the function that ends it. */
export function startBreakTerminal(receiver: Receiver, match: string, write: (line: string) => void): () => void {
  const breakpoint: Breakpoint = receiver.breakpoints.put({ ...parseBreakMatch(match), id: `listen-${process.pid}` })
  write(`Breakpoint: ${explainBreakpoint(breakpoint)}`)
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  // A terminal's Ctrl-C reaches readline, not the process: it still stops listen cleanly.
  rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'))
  const queue: HeldRequest[] = []
  let current: { requestId: number; abort: AbortController } | null = null
  let closed = false

  async function next(): Promise<void> {
    if (current || closed) return
    const held = queue.shift()
    if (!held) return
    const abort = new AbortController()
    current = { requestId: held.requestId, abort }
    const what = held.phase === 'answer' ? `your app's answer ${held.status ?? ''} to request ${held.requestId}` : `request ${held.requestId}: ${held.method} ${held.path}${held.query ? `?${held.query}` : ''} (its rules would ${held.plan})`
    write(`\nHELD ${what}`)
    for (const [name, value] of held.headers) write(`  ${name}: ${value}`)
    write(`\n${held.body}\n`)
    const then = held.onExpiry.action === 'release' ? 'released as it came' : `answered ${held.onExpiry.status}`
    try {
      for (;;) {
        const left = Math.max(0, Math.round((held.expiresAt - Date.now()) / 1000))
        const key = (await rl.question(`[r]elease  [e]dit in $EDITOR  [a]nswer  [d]rop  (${then} in ${left} s): `, { signal: abort.signal })).trim().toLowerCase()
        let decision: HoldDecision | null = null
        if (key === 'r') decision = { action: 'release' }
        else if (key === 'd') decision = { action: 'drop' }
        else if (key === 'e') decision = editInEditor(held)
        else if (key === 'a') {
          const status = Number((await rl.question('status: ', { signal: abort.signal })).trim())
          const body = await rl.question('body (one line, may be empty): ', { signal: abort.signal })
          decision = { action: 'answer', answer: { status, ...(body ? { body } : {}) } }
        }
        if (!decision) continue
        try {
          receiver.breakpoints.decide(held.requestId, decision)
          break
        } catch (error) {
          write(`  ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    } catch {
      // The prompt was cut short: the hold ended elsewhere (its limit, the app) or listen stops.
    }
    current = null
    void next()
  }

  const off = receiver.subscribe((event: ReceiverEvent) => {
    if (event.type === 'breakpoint.held') {
      queue.push(event.request)
      void next()
    } else if (event.type === 'breakpoint.released') {
      const waiting = queue.findIndex((h) => h.requestId === event.requestId)
      if (waiting !== -1) queue.splice(waiting, 1)
      write(`  request ${event.requestId}: ${explainHold(event.hold)}`)
      if (current?.requestId === event.requestId) current.abort.abort()
    }
  })
  return () => {
    closed = true
    off()
    current?.abort.abort()
    rl.close()
    // The session's breakpoint ends with it: the next listen (or the app) does not hold by it.
    receiver.breakpoints.remove(breakpoint.id)
  }
}
