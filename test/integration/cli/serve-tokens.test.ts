// API tokens against `hookloop serve --accounts` from the build, driven as a machine would: a
// WebSocket and HTTP with `Authorization: Bearer hlk_…` and no Origin. Tokens made by the built
// CLI on the server's data folder and by an admin's `token.create`; each admitted with its role;
// no token, a wrong, an unknown or a revoked one is 401 with no detail; a viewer's token changing
// something is refused naming the editor role; a token revoked by one server is refused by a second
// on the same data folder within a second; the secret is never on a server's console.
import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const CLI = resolve('out/main/cli.js')
const PASSWORD = 'correct horse battery'
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

interface Served {
  origin: string
  /** Everything the server printed, stdout and stderr. */
  output: () => string
}

async function startServe(dir: string): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--accounts', '--data', dir, '--admin', 'ada@example.com'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD },
  })
  cleanups.push(() => child.kill('SIGKILL'))
  let output = ''
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const first = await new Promise<string>((done) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output += `${line}\n`
      if (/^http/.test(line)) done(line)
    })
  })
  return { origin: new URL(first).origin, output: () => output }
}

/** A server on a new data folder, with these tokens made by `hookloop token create` beside it. */
async function servedWithTokens(roles: ('viewer' | 'editor' | 'admin')[]): Promise<{ dir: string; served: Served; secrets: string[] }> {
  const { dir, cleanup } = makeTempDir()
  cleanups.push(cleanup)
  const served = await startServe(dir)
  const secrets: string[] = []
  for (const role of roles) {
    const made = await runCli(['token', 'create', '--name', `${role} bot`, '--role', role, '--data', dir])
    expect(made.code, made.stderr).toBe(0)
    // The secret alone on stdout; stderr says what was made, never the secret.
    expect(made.stdout).toMatch(/^hlk_[A-Za-z0-9_-]{43}\n$/)
    expect(made.stderr).toContain(`made the ${role} token "${role} bot"`)
    expect(made.stderr).not.toContain(made.stdout.trim())
    secrets.push(made.stdout.trim())
  }
  return { dir, served, secrets }
}

const cookieOf = (res: Response, name: string): string | undefined =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1)

/** The admin's session cookie, signed in through the sign-in form as a browser does. */
async function adminSession(origin: string): Promise<string> {
  const page = await fetch(`${origin}/signin`)
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
  const signed = await fetch(`${origin}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(page, 'hookloop_csrf') ?? '', origin },
    body: new URLSearchParams({ csrf, email: 'ada@example.com', password: PASSWORD }).toString(),
  })
  return cookieOf(signed, 'hookloop_session') ?? ''
}

/** The admin's socket, as the app's page opens it: our Origin, the session's cookie. */
function adminSocket(origin: string, cookie: string): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/control`, { headers: { origin, cookie } })
    ws.once('message', () => done(ws))
    ws.once('unexpected-response', (_req, res) => fail(new Error(`the admin's socket was refused: ${res.statusCode}`)))
    cleanups.push(() => ws.readyState === WebSocket.OPEN && ws.terminate())
  })
}

/** Opens sockets with the token until the server refuses it (401); no timing is asserted. */
async function refusedBy(origin: string, secret: string): Promise<void> {
  for (;;) {
    const status = await socket(origin, `Bearer ${secret}`)
    if (status === 401) return
    if (status instanceof WebSocket) status.terminate()
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A socket as a machine opens one: no Origin, the token in Authorization. Its status when refused. */
function socket(origin: string, authorization: string | undefined): Promise<WebSocket | number> {
  return new Promise((done) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/control`, { headers: authorization ? { authorization } : {} })
    ws.once('message', () => done(ws))
    ws.once('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => {
        refusals.push(body)
        done(res.statusCode ?? 0)
      })
    })
    ws.on('error', () => undefined)
    cleanups.push(() => ws.readyState === WebSocket.OPEN && ws.terminate())
  })
}
const refusals: string[] = []

let ids = 0
function command(ws: WebSocket, name: string, req: unknown = {}): Promise<{ ok: boolean; res?: unknown; error?: { code: string; message: string } }> {
  const id = ++ids
  return new Promise((done) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as { t: string; id?: number; ok: boolean; error?: { code: string; message: string } }
      if (frame.t === 'res' && frame.id === id) {
        ws.off('message', onMessage)
        done(frame)
      }
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
  })
}

describe('API tokens on hookloop serve --accounts', () => {
  it('admit a token with its role on the socket and over HTTP; no token, a wrong or an unknown one is 401 with no detail', async () => {
    const { served, secrets } = await servedWithTokens(['viewer', 'editor'])
    const [viewer = '', editor = ''] = secrets
    const { origin } = served

    const ws = (await socket(origin, `Bearer ${editor}`)) as WebSocket
    expect(ws).toBeInstanceOf(WebSocket)
    expect((await command(ws, 'snapshot')).ok).toBe(true)
    expect((await command(ws, 'clock.set', { mode: 'virtual' })).ok).toBe(true)
    expect(await command(ws, 'history.setRetention', { days: 30, maxMb: null })).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'history.setRetention needs the admin role; the token "editor bot" is an editor' } })
    expect(await command(ws, 'token.create', { name: 'mine', role: 'admin' })).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'token.create needs the admin role; the token "editor bot" is an editor' } })

    const seer = (await socket(origin, `Bearer ${viewer}`)) as WebSocket
    expect((await command(seer, 'timeline.page', { offset: 0, limit: 10 })).ok).toBe(true)
    expect(await command(seer, 'clock.set', { mode: 'real' })).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'clock.set needs the editor role; the token "viewer bot" is a viewer' } })

    // Refused: none, wrong (one character changed), unknown, not a bearer; each 401 and told nothing more.
    const wrong = `${editor.slice(0, -1)}${editor.endsWith('A') ? 'B' : 'A'}`
    expect(await socket(origin, undefined)).toBe(401)
    refusals.length = 0
    for (const authorization of [`Bearer ${wrong}`, `Bearer hlk_${'x'.repeat(43)}`, 'Bearer nonsense', `Basic ${Buffer.from('ada@example.com:x').toString('base64')}`]) {
      expect(await socket(origin, authorization), authorization).toBe(401)
    }
    expect(new Set(refusals)).toEqual(new Set(['unauthorized\n']))

    // HTTP: a body downloaded by a viewer's token (404: there is no request 1), an upload needs an editor.
    const get = (authorization?: string) => fetch(`${origin}/bodies/requests/1`, { headers: authorization ? { authorization } : {} })
    expect((await get(`Bearer ${viewer}`)).status).toBe(404)
    const refused = await get(`Bearer ${wrong}`)
    expect([refused.status, (await refused.text()).trim(), refused.headers.get('www-authenticate')]).toEqual([401, 'unauthorized', 'Bearer'])
    expect((await get()).status).toBe(401)
    const upload = (secret: string) => fetch(`${origin}/bodies/uploads`, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: 'hello' })
    const viewerUpload = await upload(viewer)
    expect([viewerUpload.status, (await viewerUpload.text()).trim()]).toEqual([403, 'uploading a body needs the editor role; the token "viewer bot" is a viewer'])
    expect((await upload(editor)).status).toBe(200)
    // The app's page is for people: a token is sent to sign in. The probes stay open.
    expect((await fetch(`${origin}/`, { redirect: 'manual', headers: { authorization: `Bearer ${editor}` } })).status).toBe(303)
    expect((await fetch(`${origin}/livez`)).status).toBe(200)
    const metrics = await (await fetch(`${origin}/metrics`)).text()

    for (const secret of secrets) {
      expect(served.output()).not.toContain(secret.slice(4))
      expect(metrics).not.toContain(secret.slice(4))
    }
  })

  it('are made, listed and revoked by an admin; a revoked token is refused by a second server on the same data folder within a second, and its sockets closed', async () => {
    const { served: one, dir, secrets } = await servedWithTokens(['viewer'])
    const [fromCli = ''] = secrets
    const two = await startServe(dir)
    const admin = await adminSocket(one.origin, await adminSession(one.origin))

    const created = (await command(admin, 'token.create', { name: 'GitHub Actions', role: 'editor' })) as { ok: boolean; res: { token: { id: string; name: string; role: string; prefix: string; createdByEmail: string }; secret: string } }
    expect(created.ok).toBe(true)
    const { token, secret } = created.res
    expect(secret).toMatch(/^hlk_[A-Za-z0-9_-]{43}$/)
    expect(token).toMatchObject({ name: 'GitHub Actions', role: 'editor', prefix: secret.slice(0, 10), createdByEmail: 'ada@example.com' })
    expect(await command(admin, 'token.create', { name: ' ', role: 'editor' })).toMatchObject({ ok: false, error: { code: 'bad_request' } })

    // Used on the second server: admitted there, its last use written once.
    const onTwo = (await socket(two.origin, `Bearer ${secret}`)) as WebSocket
    expect((await command(onTwo, 'clock.set', { mode: 'virtual' })).ok).toBe(true)
    const onOne = (await socket(one.origin, `Bearer ${secret}`)) as WebSocket
    const listed = async () => ((await command(admin, 'token.list')) as { res: { tokens: { id: string; name: string; lastUsedAt: number | null; revokedAt: number | null }[] } }).res.tokens
    while ((await listed()).find((t) => t.id === token.id)?.lastUsedAt === null) await new Promise((r) => setTimeout(r, 50))
    const list = await listed()
    expect(list.map((t) => t.name)).toEqual(['GitHub Actions', 'viewer bot'])
    // The list carries no secret and no hash of one.
    expect(JSON.stringify(list)).not.toContain(secret.slice(10))
    expect(JSON.stringify(list)).not.toMatch(/[0-9a-f]{64}/)

    const closedOne = new Promise<number>((done) => onOne.once('close', (code) => done(code)))
    const closedTwo = new Promise<number>((done) => onTwo.once('close', (code) => done(code)))
    expect(await command(admin, 'token.revoke', { id: token.id })).toMatchObject({ ok: true, res: { id: token.id } })
    // Revoked on the server that revoked it: refused at once, its socket there closed at once.
    expect(await socket(one.origin, `Bearer ${secret}`)).toBe(401)
    expect(await closedOne).toBe(4401)
    // The second server refuses it once its second is up (polled).
    await refusedBy(two.origin, secret)
    // Its socket there is closed: by its next command's check, or by the second's sweep.
    const answer = await Promise.race([command(onTwo, 'snapshot'), closedTwo.then(() => null)])
    expect(answer?.ok ?? false).toBe(false)
    expect(await closedTwo).toBe(4401)

    // Revoked with the command line on the server's machine: refused by both servers.
    const id = (await listed()).find((t) => t.name === 'viewer bot')?.id ?? ''
    const revoked = await runCli(['token', 'revoke', id, '--data', dir])
    expect([revoked.code, revoked.stdout]).toEqual([0, ''])
    await refusedBy(one.origin, fromCli)
    await refusedBy(two.origin, fromCli)
    const cliList = await runCli(['token', 'list', '--data', dir])
    expect(cliList.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+WORKSPACE\s+ROLE\s+TOKEN\s+CREATED\s+BY\s+LAST USED\s+REVOKED$/)
    expect(cliList.stdout).toContain('ada@example.com')
    expect(cliList.stdout).not.toContain(secret.slice(10))

    for (const served of [one, two]) for (const s of [secret, fromCli]) expect(served.output()).not.toContain(s.slice(4))

    // The audit names the token for what it changed, the admin for the token made; no secret in it.
    const audit = ((await command(admin, 'audit.list', { offset: 0, limit: 50 })) as { res: { entries: { actor: string; via: string; command: string }[] } }).res.entries
    expect(audit.filter((e) => e.command === 'clock.set').map((e) => [e.actor, e.via])).toEqual([['token GitHub Actions', 'token']])
    expect(audit.filter((e) => e.command === 'token.create').map((e) => [e.actor, e.via])).toEqual([['ada@example.com', 'session']])
    expect(audit.some((e) => e.command === 'token.list')).toBe(false)
    expect(JSON.stringify(audit)).not.toContain(secret.slice(10))
  })
})
