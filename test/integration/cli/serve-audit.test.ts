// The audit of `hookloop serve --accounts` from the build, driven as a browser would: an editor
// makes changes over the WebSocket, the admin reads them with audit.list (who, what, newest
// first, the member who joined included), a viewer is refused naming the admin role, reads and
// refusals are not recorded, and no secret (a signing secret given or rotated, an invite's link)
// is in an audit row. On a data folder and a team's PostgreSQL: password sign-ins, and those
// refused with the email tried, the reason and the client's address (a rate-limited address
// recorded once per wait, however often it tries), never the password.
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { DATA_FILE_NAME, openDatabase } from '../../../electron/engine/store'
import { cookieOf, servedStores, signIn as sessionOf, trySignIn as postSignIn, tryJoin } from '../../support/accounts-serve'
import { makeTempDir } from '../../support/temp-dir'
import { usePostgres } from '../../support/use-postgres'

const CLI = resolve('out/main/cli.js')
const PASSWORD = 'correct horse battery'
const SIGNING_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const cleanups: (() => void)[] = []
const postgres = usePostgres()
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

/** The sign-in form posted as a browser does: its answer. */
const trySignIn = (origin: string, email: string, password = PASSWORD): Promise<Response> => postSignIn(origin, email, password)
const signIn = (origin: string, email: string): Promise<string> => sessionOf(origin, email, PASSWORD)

/** A member joins through an invite link: their session. */
async function joinAs(link: string, email: string): Promise<string> {
  return cookieOf(await tryJoin(link, { email, name: email.split('@')[0] ?? '', password: PASSWORD }), 'hookloop_session')
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
    const edna = await socket(origin, await joinAs(editorInvite.res.link as string, 'edna@example.com'))
    const vic = await socket(origin, await joinAs(viewerInvite.res.link as string, 'vic@example.com'))

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
      ['ada@example.com', 'account.signIn'],
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
    expect(rows).toHaveLength(10)
    expect(text).not.toContain(SIGNING_SECRET)
    for (const invite of [editorInvite, viewerInvite]) expect(text).not.toContain(new URL(invite.res.link as string).searchParams.get('link'))
    expect(text).not.toContain(PASSWORD)
  })
})

const STORES = servedStores(postgres, cleanups)

describe.each(Object.entries(STORES))('sign-ins in the audit of hookloop serve --accounts on %s', (_store, openedBy) => {
  it('records a password sign-in and each refusal with the email tried, the reason and the address; a rate-limited address once per wait', async () => {
    const store = await openedBy()
    const serve = startServe([...store.args, '--admin', 'ada@example.com'], { ...store.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD })
    const origin = new URL(await serve.line(/^http/)).origin
    const admin = await socket(origin, await signIn(origin, 'ada@example.com'))
    const invite = await command(admin, 'member.invite', { role: 'viewer' })
    const vic = await joinAs(invite.res.link as string, 'vic@example.com')
    expect(vic).not.toBe('')
    const members = await command(admin, 'member.list')
    const vicId = (members.res.members as { id: string; email: string }[]).find((m) => m.email === 'vic@example.com')?.id
    expect((await command(admin, 'member.setDisabled', { id: vicId, disabled: true })).ok).toBe(true)

    const wrong = 'not the password at all'
    expect((await trySignIn(origin, 'nobody@example.com')).status).toBe(401)
    expect((await trySignIn(origin, 'ada@example.com', wrong)).status).toBe(401)
    expect((await trySignIn(origin, 'vic@example.com')).status).toBe(401)
    // Past the limit every attempt is 429; the audit has one refusal for the wait, not one per attempt.
    let limited = 0
    for (let attempt = 0; attempt < 30 && limited < 5; attempt++) if ((await trySignIn(origin, 'ada@example.com', wrong)).status === 429) limited++
    expect(limited).toBe(5)

    type Entry = { actor: string; actorId: string | null; via: string; command: string; summary: string; detail: Record<string, unknown> }
    const read = async (name: string) => ((await command(admin, 'audit.list', { command: name, offset: 0, limit: 100 })).res.entries as Entry[]).reverse()
    const signIns = await read('account.signIn')
    expect(signIns).toHaveLength(1)
    expect(signIns[0]).toMatchObject({ actor: 'ada@example.com', via: 'session', detail: { role: 'admin', method: 'password', address: expect.stringMatching(/127\.0\.0\.1/) } })
    expect(signIns[0]?.summary).toBe('ada@example.com signed in through a password')

    const refused = await read('account.signInRefused')
    const said = refused.map((e) => [e.actor, e.detail.email, e.detail.reason, e.detail.method])
    expect(said.slice(0, 3)).toEqual([
      ['nobody@example.com', 'nobody@example.com', 'unknown', 'password'],
      ['ada@example.com', 'ada@example.com', 'wrong_password', 'password'],
      ['vic@example.com', 'vic@example.com', 'disabled', 'password'],
    ])
    // The wrong passwords tried until the limit, each recorded; then the one rate-limited refusal.
    expect(said.length).toBeGreaterThan(4)
    for (const entry of said.slice(3, -1)) expect(entry).toEqual(['ada@example.com', 'ada@example.com', 'wrong_password', 'password'])
    expect(said.at(-1)).toEqual(['ada@example.com', 'ada@example.com', 'rate_limited', 'password'])
    for (const entry of refused) {
      expect(entry).toMatchObject({ actorId: null, via: 'session', detail: { address: expect.stringMatching(/127\.0\.0\.1/) } })
      expect(JSON.stringify(entry)).not.toContain(wrong)
      expect(JSON.stringify(entry)).not.toContain(PASSWORD)
    }
    expect(refused.at(-1)?.summary).toMatch(/^a sign-in as ada@example\.com through a password was refused: too many attempts \(from .*127\.0\.0\.1\)$/)
  })
})
