// `hookloop serve --accounts` from the build, signing in through a real OpenID Connect provider
// (oidc-provider on loopback, test/support/identity-provider.ts), driven as a browser would: every
// redirect followed by hand with a cookie jar, the provider's login and consent forms posted. Two
// servers: one that refuses unknown addresses (the default), one that admits them as viewers.
import { spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { CONTROL_PATH, type AuditResponses } from '../../../shared/contract'
import { commandFrame } from '../host/support/control-client'
import { startIdentityProvider, type IdentityProvider } from '../../support/identity-provider'
import { makeTempDir } from '../../support/temp-dir'

const CLI = resolve('out/main/cli.js')
const CLIENT_ID = 'hookloop'
const CLIENT_SECRET = 'the client secret of hookloop at the provider'
const ADMIN = { email: 'ada@example.com', password: 'correct horse battery' }
const EDITOR = { email: 'eddie@example.com', password: 'editor staple battery' }
// The provider's people, by their login there: the editor; someone claiming the admin's address
// without having verified it; someone with no account at Hookloop.
const PEOPLE = {
  eddie: { email: EDITOR.email, email_verified: true, name: 'Eddie' },
  mallory: { email: ADMIN.email, email_verified: false, name: 'Mallory' },
  stranger: { email: 'stranger@example.com', email_verified: true, name: 'Stranger' },
}

/** A browser's cookies, by host as a browser keeps them (ports share them). */
class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>()
  header(url: string): string {
    return [...(this.cookies.get(new URL(url).hostname) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ')
  }
  take(url: string, res: Response): void {
    const host = new URL(url).hostname
    const jar = this.cookies.get(host) ?? new Map<string, string>()
    this.cookies.set(host, jar)
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a))
      if (gone || at === pair.length - 1) jar.delete(name)
      else jar.set(name, pair.slice(at + 1).trim())
    }
  }
  get(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).hostname)?.get(name)
  }
}

interface Served {
  origin: string
  output: () => string
  stop: () => void
}

async function serve(issuer: string, extra: string[], env: Record<string, string>): Promise<Served> {
  const { dir, cleanup } = makeTempDir()
  const child = spawn(process.execPath, [CLI, 'serve', '--accounts', '--data', dir, '--admin', ADMIN.email, '--oidc-issuer', issuer, '--oidc-client-id', CLIENT_ID, '--oidc-name', 'Acme ID', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: ADMIN.password, ...env },
  })
  let output = ''
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const first = await new Promise<string>((done) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`
      if (/^http/.test(line)) done(line)
    })
  })
  return {
    origin: new URL(first).origin,
    output: () => output,
    stop: () => {
      child.kill('SIGKILL')
      cleanup()
    },
  }
}

/** A request as the browser makes it: with its cookies, keeping the ones it is given, never following a redirect itself. */
async function browse(jar: CookieJar, url: string, init: { method?: string; form?: Record<string, string>; origin?: string } = {}): Promise<Response> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { cookie: jar.header(url), ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...(init.origin ? { origin: init.origin } : {}) },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  })
  jar.take(url, res)
  return res
}

/** The provider's form on a page: where it posts, and its hidden fields. */
function formOf(page: string, base: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1] ?? ''
  const fields: Record<string, string> = {}
  for (const input of page.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input[0])?.[1]
    if (name) fields[name] = /value="([^"]*)"/.exec(input[0])?.[1] ?? ''
  }
  return { action: new URL(action, base).href, fields }
}

/**
 * From Hookloop's sign-in page through the provider (its login form as `login`, then its consent
 * form) to the URL it sends the browser back to, not yet opened. `abort`: the person cancels at the
 * provider's login instead.
 */
async function throughProvider(jar: CookieJar, origin: string, login: string, abort = false): Promise<string> {
  const signInPage = await (await browse(jar, `${origin}/signin`)).text()
  expect(signInPage).toContain('Sign in with Acme ID')
  let res = await browse(jar, `${origin}/auth/oidc/start`)
  let url = `${origin}/auth/oidc/start`
  for (let step = 0; step < 20; step++) {
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location') ?? '', url).href
      if (url.startsWith(`${origin}/auth/oidc/callback`)) return url
      res = await browse(jar, url)
      continue
    }
    const page = await res.text()
    expect(res.status, page).toBe(200)
    if (abort) {
      const cancel = /href="([^"]*\/abort)"/.exec(page)?.[1] ?? ''
      res = await browse(jar, new URL(cancel, url).href)
      continue
    }
    const form = formOf(page, url)
    const filled = page.includes('name="login"') ? { ...form.fields, login, password: 'any password the dev login takes' } : form.fields
    res = await browse(jar, form.action, { method: 'POST', form: filled })
    url = form.action
  }
  throw new Error('the provider never sent the browser back')
}

describe('hookloop serve --accounts signing in through an OpenID Connect provider', () => {
  let provider: IdentityProvider
  let refusing: Served
  let admitting: Served
  let downPage = { status: 0, text: '' }
  const cleanup: (() => void)[] = []

  async function signInWithPassword(origin: string, who: { email: string; password: string }, jar: CookieJar): Promise<Response> {
    const page = await (await browse(jar, `${origin}/signin`)).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
    return browse(jar, `${origin}/signin`, { method: 'POST', origin, form: { csrf, ...who } })
  }

  function socket(origin: string, jar: CookieJar): Promise<WebSocket> {
    return new Promise((done, fail) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}${CONTROL_PATH}`, { headers: { origin, cookie: jar.header(origin) } })
      ws.once('message', () => done(ws))
      ws.once('unexpected-response', (_req, res) => fail(new Error(`socket refused: ${res.statusCode}`)))
    })
  }
  beforeAll(async () => {
    provider = await startIdentityProvider(PEOPLE)
    cleanup.push(() => void provider.close())
    const { dir, cleanup: removeSecretDir } = makeTempDir()
    cleanup.push(removeSecretDir)
    // One server reads the client secret from the environment, the other from a file.
    const secretFile = join(dir, 'client-secret')
    writeFileSync(secretFile, `${CLIENT_SECRET}\n`)
    const env = { HOOKLOOP_OIDC_CLIENT_SECRET: CLIENT_SECRET }
    ;[refusing, admitting] = await Promise.all([serve(provider.issuer, [], env), serve(provider.issuer, ['--oidc-client-secret-file', secretFile, '--oidc-new-member-role', 'viewer'], {})])
    cleanup.push(refusing.stop, admitting.stop)
    // The provider is not answering yet: a sign-in started now finds it down.
    const down = await browse(new CookieJar(), `${refusing.origin}/auth/oidc/start`)
    downPage = { status: down.status, text: await down.text() }
    provider.open({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [refusing, admitting].map((s) => `${s.origin}/auth/oidc/callback`) })

    // The editor is a member, invited by the admin.
    const adminJar = new CookieJar()
    expect((await signInWithPassword(refusing.origin, ADMIN, adminJar)).status).toBe(303)
    const admin = await socket(refusing.origin, adminJar)
    const invite = (await commandFrame(admin, 'member.invite', { role: 'editor' })) as { res: { link: string } }
    const link = new URL(invite.res.link).searchParams.get('link') ?? ''
    const joinJar = new CookieJar()
    const page = await (await browse(joinJar, `${refusing.origin}/join?link=${encodeURIComponent(link)}`)).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const joined = await browse(joinJar, `${refusing.origin}/join`, { method: 'POST', origin: refusing.origin, form: { csrf, link, email: EDITOR.email, name: 'Eddie', password: EDITOR.password } })
    expect(joined.status).toBe(303)
    admin.terminate()
  })
  afterAll(() => {
    while (cleanup.length > 0) cleanup.pop()?.()
  })

  it('says so on a page (502, no stack, no secret) when the provider does not answer at the start', () => {
    expect(downPage.status).toBe(502)
    expect(downPage.text).toContain('Acme ID could not be reached')
    expect(downPage.text).not.toMatch(/\bat .+:\d+:\d+|Error:|the client secret/)
  })

  it("signs the member in with a new session and their role, and the app shows the store's data", async () => {
    const jar = new CookieJar()
    // A session id planted before the sign-in (fixation) and the cookies the sign-in page set.
    jar.take(refusing.origin, new Response(null, { headers: { 'set-cookie': 'hookloop_session=planted-before-sign-in' } }))
    const callback = await throughProvider(jar, refusing.origin, 'eddie')
    const before = jar.header(refusing.origin)
    const back = await browse(jar, callback)
    const page = await back.text()
    expect(back.status, page).toBe(200)
    // The way on to the app is a navigation of the page's own (the Strict session cookie rides on it).
    expect(page).toContain('http-equiv="refresh" content="0;url=/"')
    const session = jar.get(refusing.origin, 'hookloop_session') ?? ''
    expect(session.length).toBeGreaterThan(20)
    for (const cookie of before.split('; ')) expect(cookie.split('=').slice(1).join('=')).not.toBe(session)
    const setCookie = back.headers.getSetCookie().find((c) => c.startsWith('hookloop_session=')) ?? ''
    expect(setCookie).toMatch(/HttpOnly; SameSite=Strict/)

    const me = (await (await browse(jar, `${refusing.origin}/account/me`)).json()) as { email: string; role: string }
    expect(me).toMatchObject({ email: EDITOR.email, role: 'editor' })
    const app = await browse(jar, `${refusing.origin}/`)
    expect([app.status, (await app.text()).includes('<script')]).toEqual([200, true])
    const ws = await socket(refusing.origin, jar)
    const snapshot = await commandFrame(ws, 'snapshot', {})
    expect(snapshot.ok).toBe(true)
    expect(snapshot.res).toHaveProperty('endpoints')
    // The role holds on the socket too: an editor may not invite.
    expect((await commandFrame(ws, 'member.invite', { role: 'viewer' })).error?.code).toBe('forbidden')
    ws.terminate()
  })

  it('refuses an address the provider has not verified, even the admin’s', async () => {
    const jar = new CookieJar()
    const back = await browse(jar, await throughProvider(jar, refusing.origin, 'mallory'))
    const page = await back.text()
    expect(back.status).toBe(403)
    expect(page).toContain('Acme ID has not verified your email address')
    expect(jar.get(refusing.origin, 'hookloop_session')).toBeUndefined()
    expect((await browse(jar, `${refusing.origin}/account/me`)).status).toBe(401)
  })

  it('refuses an unknown address by default, and admits it as the configured role when allowed', async () => {
    const jar = new CookieJar()
    const refused = await browse(jar, await throughProvider(jar, refusing.origin, 'stranger'))
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain('There is no Hookloop account for stranger@example.com')
    expect(jar.get(refusing.origin, 'hookloop_session')).toBeUndefined()

    const welcome = new CookieJar()
    const admitted = await browse(welcome, await throughProvider(welcome, admitting.origin, 'stranger'))
    expect(admitted.status).toBe(200)
    const me = (await (await browse(welcome, `${admitting.origin}/account/me`)).json()) as { email: string; role: string }
    expect(me).toMatchObject({ email: 'stranger@example.com', role: 'viewer' })
    // A second sign-in finds the account the first one made.
    const again = new CookieJar()
    expect((await browse(again, await throughProvider(again, admitting.origin, 'stranger'))).status).toBe(200)
  })

  it('refuses a callback whose state was changed, and does not let the flow be tried again', async () => {
    const jar = new CookieJar()
    const callback = new URL(await throughProvider(jar, refusing.origin, 'eddie'))
    const state = callback.searchParams.get('state') ?? ''
    callback.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`)
    const tampered = await browse(jar, callback.href)
    expect(tampered.status).toBe(400)
    expect(await tampered.text()).toContain('was not started in this browser, or it was changed')
    expect(jar.get(refusing.origin, 'hookloop_session')).toBeUndefined()
    // The flow's cookie was spent: the untouched callback is refused too.
    callback.searchParams.set('state', state)
    expect((await browse(jar, callback.href)).status).toBe(400)
    // And a callback with no flow at all (another browser's link).
    expect((await browse(new CookieJar(), callback.href)).status).toBe(400)
  })

  it('says so when the person cancels at the provider (error=access_denied)', async () => {
    const jar = new CookieJar()
    const callback = await throughProvider(jar, refusing.origin, 'eddie', true)
    expect(new URL(callback).searchParams.get('error')).toBe('access_denied')
    const back = await browse(jar, callback)
    expect(back.status).toBe(403)
    expect(await back.text()).toContain('The sign-in at Acme ID was cancelled or refused')
  })

  it('records the sign-ins in the audit with their method, and keeps the client secret and codes out of everything', async () => {
    const adminJar = new CookieJar()
    expect((await signInWithPassword(refusing.origin, ADMIN, adminJar)).status).toBe(303)
    const admin = await socket(refusing.origin, adminJar)
    const listed = await commandFrame(admin, 'audit.list', { limit: 200 })
    admin.terminate()
    expect(listed.ok).toBe(true)
    const text = JSON.stringify(listed.res)
    const { entries } = listed.res as AuditResponses['audit.list']
    const signIns = entries.filter((e) => e.command === 'account.signIn' && (e.detail as { method?: string }).method === 'oidc')
    expect(signIns.length).toBeGreaterThan(0)
    expect(signIns[0]).toMatchObject({
      actor: EDITOR.email,
      summary: `${EDITOR.email} signed in through Acme ID`,
      detail: { role: 'editor', method: 'oidc', provider: 'Acme ID', address: expect.stringMatching(/127\.0\.0\.1/) },
    })
    // Nobody refused was recorded as signed in; the admin's password sign-ins say their method.
    expect(signIns.every((e) => e.actor === EDITOR.email)).toBe(true)
    expect(entries.find((e) => e.command === 'account.signIn' && e.actor === ADMIN.email)?.detail).toMatchObject({ role: 'admin', method: 'password' })
    // The unknown address the provider vouched for was refused, and recorded with its reason.
    expect(entries.find((e) => e.command === 'account.signInRefused' && e.actor === 'stranger@example.com')?.detail).toEqual({
      email: 'stranger@example.com',
      reason: 'unknown',
      method: 'oidc',
      provider: 'Acme ID',
      address: expect.stringMatching(/127\.0\.0\.1/),
    })
    for (const where of [text, refusing.output(), admitting.output()]) expect(where).not.toContain(CLIENT_SECRET)
    // The admitted stranger joined through the provider, on the server that allows it.
    const adminThere = new CookieJar()
    expect((await signInWithPassword(admitting.origin, ADMIN, adminThere)).status).toBe(303)
    const other = await socket(admitting.origin, adminThere)
    const there = JSON.stringify(((await commandFrame(other, 'audit.list', { limit: 200 })) as { res: unknown }).res)
    other.terminate()
    expect(there).toContain('stranger@example.com joined as viewer through Acme ID')
  })

  it('refuses a disabled member with a page that says so, opens no session, and records why', async () => {
    // The member the provider made on the server that admits newcomers (the other's sign-ins are near its rate limit).
    const STRANGER = 'stranger@example.com'
    const adminJar = new CookieJar()
    expect((await signInWithPassword(admitting.origin, ADMIN, adminJar)).status).toBe(303)
    const admin = await socket(admitting.origin, adminJar)
    const members = (await commandFrame(admin, 'member.list', {})) as { res: { members: { id: string; email: string }[] } }
    const id = members.res.members.find((m) => m.email === STRANGER)?.id
    expect((await commandFrame(admin, 'member.setDisabled', { id, disabled: true })).ok).toBe(true)
    try {
      const jar = new CookieJar()
      const back = await browse(jar, await throughProvider(jar, admitting.origin, 'stranger'))
      const page = await back.text()
      expect(back.status).toBe(403)
      expect(page).toContain(`The Hookloop account of ${STRANGER} is disabled.`)
      expect(page).not.toMatch(/\bat .+:\d+:\d+|Error:/)
      expect(jar.get(admitting.origin, 'hookloop_session')).toBeUndefined()
      expect((await browse(jar, `${admitting.origin}/account/me`)).status).toBe(401)
      const refused = (await commandFrame(admin, 'audit.list', { command: 'account.signInRefused', limit: 10 })) as { res: AuditResponses['audit.list'] }
      expect(refused.res.entries[0]).toMatchObject({ actor: STRANGER, detail: { email: STRANGER, reason: 'disabled', method: 'oidc', provider: 'Acme ID' } })
    } finally {
      expect((await commandFrame(admin, 'member.setDisabled', { id, disabled: false })).ok).toBe(true)
      admin.terminate()
    }
  })

  it('refuses settings it cannot use with one line and exit 2, and takes the secret from the environment or a file, not both', () => {
    const run = (args: string[], env: Record<string, string> = {}) => {
      const result = spawnSync(process.execPath, [CLI, 'serve', ...args], { encoding: 'utf8', env: { ...process.env, HOOKLOOP_OIDC_CLIENT_SECRET: '', ...env } })
      return [result.status, result.stderr.trim()]
    }
    const issuer = ['--oidc-issuer', 'https://login.example.com', '--oidc-client-id', CLIENT_ID]
    expect(run(issuer)).toEqual([2, 'hookloop: serve: --oidc-issuer is for a server with accounts: add --accounts'])
    expect(run(['--accounts', '--oidc-client-id', CLIENT_ID])).toEqual([2, 'hookloop: serve: --oidc-client-id is for signing in through an identity provider: add --oidc-issuer URL'])
    expect(run(['--accounts', ...issuer])).toEqual([
      2,
      'hookloop: serve: the identity provider refused: the client secret is empty (--oidc-issuer, --oidc-client-id, $HOOKLOOP_OIDC_CLIENT_SECRET or --oidc-client-secret-file)',
    ])
    expect(run(['--accounts', '--oidc-issuer', 'http://login.example.com', '--oidc-client-id', CLIENT_ID], { HOOKLOOP_OIDC_CLIENT_SECRET: CLIENT_SECRET })[1]).toContain('the issuer must be an https:// URL (http:// only on loopback)')
    expect(run(['--accounts', ...issuer, '--oidc-client-secret-file', '/nonexistent/secret'], { HOOKLOOP_OIDC_CLIENT_SECRET: CLIENT_SECRET })).toEqual([
      2,
      'hookloop: serve: give the client secret in $HOOKLOOP_OIDC_CLIENT_SECRET or --oidc-client-secret-file, not both',
    ])
    expect(run(['--accounts', ...issuer, '--oidc-new-member-role', 'admin'], { HOOKLOOP_OIDC_CLIENT_SECRET: CLIENT_SECRET })[0]).toBe(2)
  })
})
