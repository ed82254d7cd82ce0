// The audit of `hookloop serve --accounts` from the build, driven as a browser would: an editor
// makes changes over the WebSocket, the admin reads them with audit.list (who, what, newest
// first, the member who joined included), a viewer is refused naming the admin role, reads and
// refusals are not recorded, and no secret (a signing secret given or rotated, an invite's link)
// is in an audit row.
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { DATA_FILE_NAME, openDatabase } from '../../../electron/engine/store'
import { makeTempDir } from '../../support/temp-dir'

const CLI = resolve('out/main/cli.js')
const PASSWORD = 'correct horse battery'
const SIGNING_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

function startServe(args: string[], env: Record<string, string>): { child: ChildProcess; line: (match: RegExp) => Promise<string> } {
  const child = spawn(process.execPath, [CLI, 'serve', '--accounts', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  cleanups.push(() => child.kill('SIGKILL'))
  const lines: string[] = []
  const waiting: { match: RegExp; done: (line: string) => void }[] = []
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line)
    for (const w of [...waiting]) {
      if (!w.match.test(line)) continue
      waiting.splice(waiting.indexOf(w), 1)
      w.done(line)
    }
  })
  const line = (match: RegExp) => new Promise<string>((done) => (lines.find((l) => match.test(l)) ? done(lines.find((l) => match.test(l)) ?? '') : waiting.push({ match, done })))
  return { child, line }
}

const cookieOf = (res: Response, name: string): string =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1) ?? ''

async function formOf(url: string): Promise<{ csrf: string; cookie: string }> {
  const page = await fetch(url)
  return { csrf: /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '', cookie: cookieOf(page, 'hookloop_csrf') }
}

const post = (url: string, origin: string, cookie: string, form: Record<string, string>) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin }, body: new URLSearchParams(form).toString() })

async function signIn(origin: string, email: string): Promise<string> {
  const { csrf, cookie } = await formOf(`${origin}/signin`)
  return cookieOf(await post(`${origin}/signin`, origin, cookie, { csrf, email, password: PASSWORD }), 'hookloop_session')
}

/** A member joins through an invite link: their session. */
async function joinAs(origin: string, link: string, email: string): Promise<string> {
  const { csrf, cookie } = await formOf(link)
  return cookieOf(await post(`${origin}/join`, origin, cookie, { csrf, link: new URL(link).searchParams.get('link') ?? '', email, name: email.split('@')[0] ?? '', password: PASSWORD }), 'hookloop_session')
}

function socket(origin: string, cookie: string): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/control?token=`, { headers: { origin, cookie } })
    ws.once('message', () => done(ws))
    ws.once('unexpected-response', (_req, res) => fail(new Error(`socket refused: ${res.statusCode}`)))
    cleanups.push(() => ws.readyState === WebSocket.OPEN && ws.terminate())
  })
}

type Frame = { ok: boolean; res?: any; error?: { code: string; message: string } } // eslint-disable-line @typescript-eslint/no-explicit-any
let ids = 0
function command(ws: WebSocket, name: string, req: unknown = {}): Promise<Frame> {
  const id = ++ids
  return new Promise((done) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as Frame & { t: string; id?: number }
      if (frame.t !== 'res' || frame.id !== id) return
      ws.off('message', onMessage)
      done(frame)
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
  })
}

describe('the audit of hookloop serve --accounts', () => {
  it("records an editor's changes for the admin, refuses a viewer, and keeps no secret", async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const serve = startServe(['--data', dir, '--admin', 'ada@example.com'], { HOOKLOOP_ADMIN_PASSWORD: PASSWORD })
    const origin = new URL(await serve.line(/^http/)).origin
    const admin = await socket(origin, await signIn(origin, 'ada@example.com'))
    const editorInvite = await command(admin, 'member.invite', { role: 'editor' })
    const viewerInvite = await command(admin, 'member.invite', { role: 'viewer' })
    const edna = await socket(origin, await joinAs(origin, editorInvite.res.link as string, 'edna@example.com'))
    const vic = await socket(origin, await joinAs(origin, viewerInvite.res.link as string, 'vic@example.com'))

    const endpoint = await command(edna, 'endpoint.create', { name: 'Shop', scheme: 'standard-webhooks', secrets: [SIGNING_SECRET], dedupe: null })
    expect(endpoint.ok).toBe(true)
    const rule = await command(edna, 'rule.addPreset', { endpointId: endpoint.res.id, preset: 'slow' })
    const sub = await command(edna, 'subscription.create', { name: 'Shop feed', target: { endpointId: endpoint.res.id }, scheme: 'standard-webhooks', secret: SIGNING_SECRET, policyId: 'csku' })
    expect(sub.ok).toBe(true)
    // Reads and refusals are not changes.
    expect((await command(edna, 'snapshot')).ok).toBe(true)
    expect((await command(admin, 'member.list')).ok).toBe(true)
    expect((await command(edna, 'subscription.rotateSecret', { id: sub.res.id })).error?.code).toBe('forbidden')
    const rotated = await command(admin, 'subscription.rotateSecret', { id: sub.res.id })
    expect(rotated.ok).toBe(true)

    expect(await command(vic, 'audit.list')).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'audit.list needs the admin role; vic@example.com is a viewer' } })

    const listed = await command(admin, 'audit.list', {})
    expect(listed.ok).toBe(true)
    const entries = listed.res.entries as { actor: string; via: string; command: string; target: { kind: string; id: string } | null; detail: Record<string, unknown>; at: number }[]
    expect(entries.map((e) => [e.actor, e.command])).toEqual([
      ['ada@example.com', 'subscription.rotateSecret'],
      ['edna@example.com', 'subscription.create'],
      ['edna@example.com', 'rule.addPreset'],
      ['edna@example.com', 'endpoint.create'],
      ['vic@example.com', 'account.join'],
      ['edna@example.com', 'account.join'],
      ['ada@example.com', 'member.invite'],
      ['ada@example.com', 'member.invite'],
      ['ada@example.com', 'account.firstAdmin'],
    ])
    expect(entries[0]).toMatchObject({ via: 'session', target: { kind: 'subscription', id: sub.res.id } })
    expect(entries[0]?.detail).toEqual({ id: sub.res.id })
    expect(entries[1]).toMatchObject({ target: { kind: 'subscription', id: sub.res.id }, detail: { name: 'Shop feed', secret: '[redacted]' } })
    expect(entries[2]).toMatchObject({ target: { kind: 'rule', id: rule.res.id }, detail: { endpointId: endpoint.res.id, preset: 'slow' } })
    expect(entries[3]).toMatchObject({ target: { kind: 'endpoint', id: endpoint.res.id }, detail: { name: 'Shop', secrets: '[redacted]' } })
    expect(entries[0]!.at).toBeGreaterThan(Date.now() - 600_000)

    // Filtered by actor (any case) and command.
    const ednas = await command(admin, 'audit.list', { actor: 'EDNA@example.com', command: 'endpoint.create' })
    expect(ednas.res).toMatchObject({ total: 1, entries: [{ command: 'endpoint.create' }] })

    // The audit rows, read from the file: no signing secret, no invite link's secret.
    const db = openDatabase({ file: join(dir, DATA_FILE_NAME), notice: () => undefined })
    const rows = db.prepare('SELECT * FROM audit').all() as Record<string, unknown>[]
    db.close()
    const text = JSON.stringify(rows)
    expect(rows).toHaveLength(9)
    expect(text).not.toContain(SIGNING_SECRET)
    for (const invite of [editorInvite, viewerInvite]) expect(text).not.toContain(new URL(invite.res.link as string).searchParams.get('link'))
    expect(text).not.toContain(PASSWORD)
  })
})
