// `hookloop serve --accounts` from the build, driven as a browser would with fetch and a WebSocket:
// the socket refuses anyone not signed in (401), the setup link makes the first admin, a wrong
// password is refused, sign-in is rate limited (429 with Retry-After), a viewer's change command
// answers `forbidden` naming the role it needs, and sign-out ends the session on the server.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createAccounts } from '../../../electron/engine/accounts'
import { createSqliteEngine, DATA_FILE_NAME, openDatabase } from '../../../electron/engine/store'
import { makeTempDir } from '../../support/temp-dir'
import { freePort } from '../../support/loopback'

const CLI = resolve('out/main/cli.js')
const PASSWORD = 'correct horse battery'
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

function startServe(args: string[], env: Record<string, string> = {}): { child: ChildProcess; lines: string[]; line: (match: RegExp) => Promise<string> } {
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
  const line = (match: RegExp) =>
    new Promise<string>((done) => {
      const seen = lines.find((l) => match.test(l))
      if (seen) done(seen)
      else waiting.push({ match, done })
    })
  return { child, lines, line }
}

const cookieOf = (res: Response, name: string): string | undefined =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1)

/** The sign-in (or join) page's CSRF token and its pre-session cookie. */
async function formOf(url: string): Promise<{ csrf: string; cookie: string }> {
  const page = await fetch(url)
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
  return { csrf, cookie: cookieOf(page, 'hookloop_csrf') ?? '' }
}

async function post(url: string, origin: string, cookie: string, form: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin }, body: new URLSearchParams(form).toString() })
}

async function signIn(origin: string, email: string, password: string): Promise<Response> {
  const { csrf, cookie } = await formOf(`${origin}/signin`)
  return post(`${origin}/signin`, origin, cookie, { csrf, email, password })
}

/** A socket as the app's page opens it: our Origin, the session's cookie. Its status when refused. */
function socket(origin: string, cookie: string | undefined, server = origin): Promise<WebSocket | number> {
  return new Promise((done) => {
    const ws = new WebSocket(`${server.replace('http', 'ws')}/control?token=`, { headers: { origin, ...(cookie ? { cookie } : {}) } })
    ws.once('message', () => done(ws))
    ws.once('unexpected-response', (_req, res) => done(res.statusCode ?? 0))
    ws.on('error', () => undefined)
    cleanups.push(() => ws.readyState === WebSocket.OPEN && ws.terminate())
  })
}

let ids = 0
function command(ws: WebSocket, name: string, req: unknown = {}): Promise<{ ok: boolean; error?: { code: string; message: string } }> {
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

describe('hookloop serve --accounts', () => {
  it('answers its probes with no account, prints the setup link once, which makes the first admin, who reaches the app', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const serve = startServe(['--data', dir])
    const first = await serve.line(/^http/)
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/signin$/)
    const origin = new URL(first).origin
    const setupLine = await serve.line(/one-time link/)
    const link = /(http:\/\/\S+\/join\?link=\S+)$/.exec(setupLine)?.[1] ?? ''
    expect((await fetch(`${origin}/livez`)).status).toBe(200)
    expect(await socket(origin, undefined)).toBe(401)
    const app = await fetch(`${origin}/`, { redirect: 'manual' })
    expect([app.status, app.headers.get('location')]).toEqual([303, '/signin'])

    const { csrf, cookie } = await formOf(link)
    expect(csrf).not.toBe('')
    const linkSecret = new URL(link).searchParams.get('link') ?? ''
    // Without the form's CSRF token, nothing is made.
    expect((await post(`${origin}/join`, origin, cookie, { csrf: 'forged', link: linkSecret, email: 'ada@example.com', password: PASSWORD })).status).toBe(403)
    const joined = await post(`${origin}/join`, origin, cookie, { csrf, link: linkSecret, email: 'ada@example.com', name: 'Ada', password: PASSWORD })
    expect(joined.status).toBe(303)
    const session = cookieOf(joined, 'hookloop_session') ?? ''
    expect(joined.headers.getSetCookie().join('\n')).toMatch(/hookloop_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict/)
    const page = await fetch(`${origin}/`, { headers: { cookie: session } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="root">')
    expect(await (await fetch(`${origin}/account/me`, { headers: { cookie: session } })).json()).toMatchObject({ email: 'ada@example.com', name: 'Ada', role: 'admin' })
    const ws = await socket(origin, session)
    expect(ws).toBeInstanceOf(WebSocket)
    expect((await command(ws as WebSocket, 'history.setRetention', { days: 30, maxMb: null })).ok).toBe(true)
    // The link is used: it makes nobody else.
    expect((await fetch(link)).status).toBe(404)
    expect(serve.lines.filter((l) => l.includes(linkSecret))).toHaveLength(1)
  })

  it('refuses an admin without a password or with a short one, and --host beyond loopback without --public-url', () => {
    const refused = (args: string[], env: Record<string, string>) => spawnSync(process.execPath, [CLI, 'serve', ...args], { encoding: 'utf8', env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: '', ...env } })
    const none = refused(['--accounts', '--admin', 'ada@example.com'], {})
    expect([none.status, none.stderr.trim()]).toEqual([2, 'hookloop: serve: --admin ada@example.com needs its password in $HOOKLOOP_ADMIN_PASSWORD (there is no default password)'])
    const short = refused(['--accounts', '--admin', 'ada@example.com'], { HOOKLOOP_ADMIN_PASSWORD: 'hunter2' })
    expect([short.status, short.stderr.trim()]).toEqual([2, 'hookloop: serve: $HOOKLOOP_ADMIN_PASSWORD refused: the password is too short: at least 12 characters'])
    const host = refused(['--host', '0.0.0.0'], { HOOKLOOP_ACCOUNTS: '1' })
    expect([host.status, host.stderr.trim()]).toEqual([2, 'hookloop: serve: --host 0.0.0.0 needs --public-url URL: the address people open, the only name besides loopback the app answers to'])
  })

  it('signs in the admin from --admin, refuses a wrong password, limits attempts, refuses a viewer’s change, and ends a session on sign-out', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    // A viewer, invited by the admin before this server starts (the store the server opens).
    const db = openDatabase({ file: join(dir, DATA_FILE_NAME), notice: () => undefined })
    const engine = createSqliteEngine(db)
    const accounts = createAccounts({ engine: () => engine })
    const admin = await accounts.createFirstAdmin({ email: 'ada@example.com', password: PASSWORD })
    await accounts.redeem(await accounts.invite('viewer', admin.id, 'default'), { email: 'vic@example.com', password: PASSWORD })
    await engine.close()

    const serve = startServe(['--data', dir, '--admin', 'someone@example.com'], { HOOKLOOP_ADMIN_PASSWORD: PASSWORD })
    const origin = new URL(await serve.line(/^http/)).origin
    expect(serve.lines.join('\n')).not.toContain('one-time link')

    expect((await signIn(origin, 'ada@example.com', 'not the password')).status).toBe(401)
    // --admin makes no account once there is one.
    expect((await signIn(origin, 'someone@example.com', PASSWORD)).status).toBe(401)

    const viewer = await signIn(origin, 'Vic@Example.com', PASSWORD)
    expect(viewer.status).toBe(303)
    const session = cookieOf(viewer, 'hookloop_session') ?? ''
    const ws = (await socket(origin, session)) as WebSocket
    expect((await command(ws, 'snapshot')).ok).toBe(true)
    expect(await command(ws, 'clock.set', { mode: 'virtual' })).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'clock.set needs the editor role; vic@example.com is a viewer' } })
    // A socket from another site is refused whatever its cookie.
    expect(await socket('http://evil.example', session, origin)).toBe(403)

    const me = (await (await fetch(`${origin}/account/me`, { headers: { cookie: session } })).json()) as { csrf: string }
    expect((await fetch(`${origin}/signout`, { method: 'POST', headers: { cookie: session, origin } })).status).toBe(403)
    const closed = new Promise<number>((done) => ws.once('close', (code) => done(code)))
    expect((await fetch(`${origin}/signout`, { method: 'POST', headers: { cookie: session, origin, 'x-hookloop-csrf': me.csrf } })).status).toBe(204)
    // The socket the session opened is closed by the server: it receives nothing more.
    expect(await closed).toBe(4401)
    expect(await socket(origin, session)).toBe(401)
    expect((await fetch(`${origin}/account/me`, { headers: { cookie: session } })).status).toBe(401)

    // Five attempts a minute for one email (one was made above): the sixth waits, told how long.
    const statuses: number[] = []
    let limited: Response | undefined
    for (let i = 0; i < 6; i++) {
      limited = await signIn(origin, 'ada@example.com', `wrong ${i}`)
      statuses.push(limited.status)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429])
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('lets an admin invite a member with a role shown once, change the role and disable the account; a member cannot', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const serve = startServe(['--data', dir, '--admin', 'ada@example.com'], { HOOKLOOP_ADMIN_PASSWORD: PASSWORD })
    const origin = new URL(await serve.line(/^http/)).origin
    const admin = (await socket(origin, cookieOf(await signIn(origin, 'ada@example.com', PASSWORD), 'hookloop_session'))) as WebSocket
    const invite = (await command(admin, 'member.invite', { role: 'viewer' })) as unknown as { ok: boolean; res: { link: string; role: string } }
    expect(invite.ok).toBe(true)
    expect(invite.res.link).toMatch(new RegExp(`^${origin}/join\\?link=[A-Za-z0-9_-]{43}$`))
    // The invite's secret is in the admin's answer only, never on the server's console.
    expect(serve.lines.join('\n')).not.toContain(new URL(invite.res.link).searchParams.get('link'))

    const { csrf, cookie } = await formOf(invite.res.link)
    const joined = await post(`${origin}/join`, origin, cookie, { csrf, link: new URL(invite.res.link).searchParams.get('link') ?? '', email: 'vic@example.com', name: 'Vic', password: PASSWORD })
    expect(joined.status).toBe(303)
    const vic = (await socket(origin, cookieOf(joined, 'hookloop_session'))) as WebSocket
    expect(await command(vic, 'member.list')).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'member.list needs the admin role; vic@example.com is a viewer' } })

    const listed = (await command(admin, 'member.list')) as unknown as { res: { members: { id: string; email: string; role: string }[] } }
    expect(listed.res.members.map((m) => [m.email, m.role])).toEqual([
      ['ada@example.com', 'admin'],
      ['vic@example.com', 'viewer'],
    ])
    const vicId = listed.res.members[1]?.id ?? ''
    expect(await command(admin, 'member.setRole', { id: vicId, role: 'editor' })).toMatchObject({ ok: true, res: { role: 'editor' } })
    expect((await command(vic, 'clock.set', { mode: 'virtual' })).ok).toBe(true)
    const closed = new Promise<number>((done) => vic.once('close', (code) => done(code)))
    expect(await command(admin, 'member.setDisabled', { id: vicId, disabled: true })).toMatchObject({ ok: true, res: { disabled: true } })
    expect(await closed).toBe(4401)
    expect((await signIn(origin, 'vic@example.com', PASSWORD)).status).toBe(401)
  })

  it('answers its public address and no other name, marks the cookie Secure behind a TLS proxy it trusts, and serves bodies to a session', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const port = await freePort()
    const serve = startServe(['--data', dir, '--port', String(port), '--admin', 'ada@example.com', '--public-url', 'https://hookloop.example.com', '--trust-proxy'], { HOOKLOOP_ADMIN_PASSWORD: PASSWORD })
    expect(await serve.line(/^http/)).toBe('https://hookloop.example.com/signin')
    const address = `http://127.0.0.1:${port}`
    const hostStatus = (host: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; cookies: string[] }>((done, fail) => {
        const req = request(`${address}/signin`, { headers: { host, ...headers } }, (res) => {
          res.resume()
          done({ status: res.statusCode ?? 0, cookies: res.headers['set-cookie'] ?? [] })
        })
        req.once('error', fail)
        req.end()
      })
    expect((await hostStatus('hookloop.example.com')).status).toBe(200)
    expect((await hostStatus('rebound.attacker.example')).status).toBe(421)
    expect((await hostStatus('hookloop.example.com', { 'x-forwarded-proto': 'https' })).cookies.join('\n')).toMatch(/hookloop_csrf=[^;]+;.*; Secure/)
    expect((await hostStatus('hookloop.example.com')).cookies.join('\n')).not.toContain('Secure')

    const signed = await signIn(address, 'ada@example.com', PASSWORD)
    const session = cookieOf(signed, 'hookloop_session') ?? ''
    expect((await fetch(`${address}/bodies/requests/1`)).status).toBe(401)
    expect((await fetch(`${address}/bodies/requests/1`, { headers: { cookie: session } })).status).toBe(404)
  })
})
