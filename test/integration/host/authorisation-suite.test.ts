// Every route of the control server and every command on its WebSocket, against a served Hookloop
// with accounts from the build (`hookloop serve --accounts`), driven by each credential: none, a
// wrong token, a revoked token, and a session and a token of each role. Each route is checked by its
// declared decision (electron/engine/host/route-decisions.ts), each command by its least role
// (shared/contract/command-roles.ts): refused 401 with no detail of why, 403 naming the role it
// needs below it, admitted at it. Then: the app's page without a session, session fixation, CSRF on
// cookie-authenticated writes, no password or token in the server's output, the audit or /metrics,
// and sign-in's rate limit (last: it shuts this address out for a minute). And the other workspace:
// a session and a token of a second workspace, against every id-taking command
// (electron/engine/host/workspace-scope.ts) and the body route with the first workspace's ids, are
// answered exactly as for an id that does not exist, and list nothing of it. One server serves them all.
// Signing in through an identity provider is driven against a real one in test/integration/cli/serve-oidc.test.ts.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { BODY_UPLOAD_PATH, COMMAND_ROLES, CONTROL_PATH, requestBodyPath, ROLES, roleAtLeast, type CommandName, type Role } from '../../../shared/contract'
import { ACCOUNT_ROUTES } from '../../../electron/engine/host/account-routes'
import { BODY_ROUTES } from '../../../electron/engine/host/body-routes'
import { CONTROL_ROUTES } from '../../../electron/engine/host/control-server'
import { PROBE_PATHS } from '../../../electron/engine/host/probe-routes'
import { ROUTE_DECISIONS, type ControlServerRoute } from '../../../electron/engine/host/route-decisions'
import { SCOPED_IDS, STORE_WIDE } from '../../../electron/engine/host/workspace-scope'
import { createAccounts, createTokens } from '../../../electron/engine/accounts'
import { createWorkspaceStore, openStore, parseStoreLocation } from '../../../electron/engine/store'
import { tryJoin } from '../../support/accounts-serve'
import { makeTempDir } from '../../support/temp-dir'
import { usePostgres } from '../../support/use-postgres'

const CLI = resolve('out/main/cli.js')
const PASSWORD = 'correct horse battery'
const PASSWORDS: Record<Role, string> = { admin: PASSWORD, editor: 'editor staple battery', viewer: 'viewer staple battery' }
const EMAILS: Record<Role, string> = { admin: 'ada@example.com', editor: 'eddie@example.com', viewer: 'vic@example.com' }

const postgres = usePostgres()

// The store a served Hookloop keeps, on either engine: what `serve` is given to open it (the
// arguments, and the environment: a team's URL and data key stay out of argv).
const STORES: Record<string, (dir: string) => Promise<{ args: string[]; env: Record<string, string> }>> = {
  'a data folder': async (dir) => ({ args: ['--data', dir], env: {} }),
  "a team's PostgreSQL": async () => ({ args: [], env: { HOOKLOOP_STORE: await postgres.freshDatabase(), HOOKLOOP_SECRET_KEY: randomBytes(32).toString('base64') } }),
}

/** A credential a request is made with: its headers (a socket adds our Origin when it is a session's). */
interface Credential {
  label: string
  headers: Record<string, string>
  /** The role it acts with; null when it admits nobody. */
  role: Role | null
  session: boolean
}

const cookieOf = (res: Response, name: string): string | undefined =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1)

const article = (role: string): string => (/^[aeiou]/.test(role) ? 'an' : 'a')

describe.each(Object.entries(STORES))('authorisation of hookloop serve --accounts on %s', (_store, openedBy) => {
  let origin = ''
  let output = ''
  let stop = (): void => undefined
  const secrets: string[] = []
  const credentials: Credential[] = []
  const sockets: WebSocket[] = []
  let ids = 0
  let storeLocation = ''
  /** The second workspace's admin: a session and a token, each acting there only. */
  const other = { session: '', token: '' }

  async function signIn(email: string, password: string, cookie = ''): Promise<Response> {
    const page = await fetch(`${origin}/signin`, { headers: cookie ? { cookie } : {} })
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
    const preSession = cookieOf(page, 'hookloop_csrf') ?? cookie.split('; ').find((c) => c.startsWith('hookloop_csrf=')) ?? ''
    return fetch(`${origin}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [cookie, preSession].filter(Boolean).join('; '), origin },
      body: new URLSearchParams({ csrf, email, password }).toString(),
    })
  }

  /** A socket with these headers: open (after the hello frame), or the status and text it was refused with. */
  function socket(headers: Record<string, string>): Promise<WebSocket | { status: number; text: string }> {
    return new Promise((done) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}${CONTROL_PATH}`, { headers })
      ws.once('message', () => {
        sockets.push(ws)
        done(ws)
      })
      ws.once('unexpected-response', (_req, res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString()))
        res.on('end', () => done({ status: res.statusCode ?? 0, text }))
      })
      ws.on('error', () => undefined)
    })
  }
  const socketHeaders = (credential: Credential): Record<string, string> => ({ ...credential.headers, ...(credential.session ? { origin } : {}) })

  function command(ws: WebSocket, name: string, req: unknown): Promise<{ ok: boolean; res?: unknown; error?: { code: string; message: string } }> {
    const id = ++ids
    return new Promise((done) => {
      const onMessage = (data: WebSocket.RawData) => {
        const frame = JSON.parse(data.toString()) as { t: string; id?: number; ok: boolean; res?: unknown; error?: { code: string; message: string } }
        if (frame.t !== 'res' || frame.id !== id) return
        ws.off('message', onMessage)
        done(frame)
      }
      ws.on('message', onMessage)
      ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
    })
  }

  beforeAll(async () => {
    const { dir, cleanup } = makeTempDir()
    const store = await openedBy(dir)
    storeLocation = store.env.HOOKLOOP_STORE ?? dir
    const child = spawn(process.execPath, [CLI, 'serve', '--accounts', ...store.args, '--admin', EMAILS.admin], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...store.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD },
    })
    stop = () => {
      child.kill('SIGKILL')
      cleanup()
    }
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const first = await new Promise<string>((done) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        output += `${line}\n`
        if (/^http/.test(line)) done(line)
      })
    })
    origin = new URL(first).origin

    // The admin signs in; an editor and a viewer join through the admin's invites.
    const sessions = {} as Record<Role, string>
    sessions.admin = cookieOf(await signIn(EMAILS.admin, PASSWORD), 'hookloop_session') ?? ''
    const admin = (await socket({ origin, cookie: sessions.admin })) as WebSocket
    for (const role of ['editor', 'viewer'] as const) {
      const invite = (await command(admin, 'member.invite', { role })) as { res: { link: string } }
      const link = new URL(invite.res.link).searchParams.get('link') ?? ''
      const page = await fetch(`${origin}/join?link=${encodeURIComponent(link)}`)
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
      const joined = await fetch(`${origin}/join`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(page, 'hookloop_csrf') ?? '', origin },
        body: new URLSearchParams({ csrf, link, email: EMAILS[role], name: role, password: PASSWORDS[role] }).toString(),
      })
      expect(joined.status).toBe(303)
      sessions[role] = cookieOf(joined, 'hookloop_session') ?? ''
    }
    // A token of each role, and one revoked.
    const tokens = {} as Record<Role, string>
    for (const role of ROLES) {
      const made = (await command(admin, 'token.create', { name: `${role} bot`, role })) as { res: { secret: string } }
      tokens[role] = made.res.secret
    }
    const revoked = (await command(admin, 'token.create', { name: 'revoked bot', role: 'admin' })) as { res: { secret: string; token: { id: string } } }
    expect((await command(admin, 'token.revoke', { id: revoked.res.token.id })).ok).toBe(true)
    secrets.push(...Object.values(tokens), revoked.res.secret)

    // A second workspace, made beside the server as another process on the store would: an admin
    // of it only (joined through an invite to it) and an admin token of it.
    const beside = await openStore(parseStoreLocation(storeLocation), { notice: () => undefined, withoutSecrets: true })
    try {
      await createWorkspaceStore(beside.engine).insert({ id: 'ws_other', name: 'Other', createdAt: 1 })
      const adaId = (await createWorkspaceStore(beside.engine).members('default'))[0]?.accountId ?? ''
      const link = await createAccounts({ engine: () => beside.engine }).invite('admin', adaId, 'ws_other')
      const joined = await tryJoin(`${origin}/join?link=${encodeURIComponent(link)}`, { email: 'otto@example.com', name: 'Otto', password: PASSWORD })
      other.session = cookieOf(joined, 'hookloop_session') ?? ''
      other.token = (await createTokens({ engine: () => beside.engine }).create({ name: 'other bot', role: 'admin', workspaceId: 'ws_other', by: null })).secret
      secrets.push(other.token)
    } finally {
      await beside.engine.close()
    }

    const wrong = `${tokens.admin.slice(0, -1)}${tokens.admin.endsWith('A') ? 'B' : 'A'}`
    credentials.push(
      { label: 'no credentials', headers: {}, role: null, session: false },
      { label: 'a wrong token', headers: { authorization: `Bearer ${wrong}` }, role: null, session: false },
      { label: 'a revoked token', headers: { authorization: `Bearer ${revoked.res.secret}` }, role: null, session: false },
      { label: 'an unknown session', headers: { cookie: 'hookloop_session=not-a-session' }, role: null, session: true },
    )
    for (const role of ROLES) {
      credentials.push({ label: `the ${role}'s session`, headers: { cookie: sessions[role] }, role, session: true })
      credentials.push({ label: `the ${role}'s token`, headers: { authorization: `Bearer ${tokens[role]}` }, role, session: false })
    }
  })
  afterAll(() => {
    for (const ws of sockets) ws.terminate()
    stop()
  })

  it('has a decision for every route the control server answers, and no decision for a route it does not', () => {
    const served = [...ACCOUNT_ROUTES, ...BODY_ROUTES, ...CONTROL_ROUTES, ...PROBE_PATHS.map((path) => `GET ${path}` as const)]
    expect(new Set(Object.keys(ROUTE_DECISIONS))).toEqual(new Set(served))
    // The body routes' table names the paths the contract serves them at.
    expect(BODY_ROUTES).toEqual([`GET ${requestBodyPath(0).replace(/0$/, ':id')}`, `POST ${BODY_UPLOAD_PATH}`])
  })

  /** A request on a route as the route's pattern names it (`:id` a request that does not exist, `*` a built asset). */
  function requestOf(route: ControlServerRoute): { method: string; path: string; body?: string } {
    const [method = 'GET', pattern = '/'] = route.split(' ')
    const asset = readdirSync(resolve('out/renderer/assets'))[0] ?? ''
    const path = pattern.replace(':id', '999999').replace('/*', `/assets/${asset}`)
    return method === 'POST' ? { method, path, body: 'a=b' } : { method, path }
  }
  /** A request on a route with a credential, as a browser (a session's, from our page) or a machine sends it. */
  const http = (route: ControlServerRoute, credential: Credential) => {
    const { method, path, body } = requestOf(route)
    const form: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }
    return fetch(`${origin}${path}`, { method, redirect: 'manual', headers: { ...form, ...socketHeaders(credential) }, ...(body === undefined ? {} : { body }) })
  }

  it.each(Object.entries(ROUTE_DECISIONS) as [ControlServerRoute, (typeof ROUTE_DECISIONS)[ControlServerRoute]][])('%s is answered by its decision for every credential', async (route, decision) => {
    for (const credential of credentials) {
      const what = `${route} with ${credential.label}`
      if (decision.kind === 'commands') {
        const opened = await socket(socketHeaders(credential))
        if (credential.role === null) {
          expect(opened, what).toEqual({ status: 401, text: credential.session ? 'not signed in\n' : credential.headers.authorization ? 'unauthorized\n' : 'not signed in\n' })
        } else {
          expect(opened, what).toBeInstanceOf(WebSocket)
          ;(opened as WebSocket).terminate()
        }
        continue
      }
      const res = await http(route, credential)
      const text = await res.text()
      switch (decision.kind) {
        case 'open':
          expect(res.status, what).toBe(200)
          break
        case 'sign-in':
          // Anyone reaches the pages (someone signed in is sent on to the app); a post without the
          // pre-session CSRF token is refused whoever sends it; a join without a live link finds none.
          if (route === 'GET /signin' && credential.session && credential.role !== null) expect([res.status, res.headers.get('location')], what).toEqual([303, '/'])
          else if (route === 'GET /signin') expect(text, what).toContain('name="password"')
          else if (route === 'POST /signin') expect([res.status, text], what).toEqual([403, expect.stringContaining('This form expired')])
          else expect(res.status, what).toBe(404)
          break
        case 'identity-provider':
          // This server has no identity provider: its routes answer a page saying so, whoever asks
          // (test/integration/cli/serve-oidc.test.ts drives them against a real provider).
          expect([res.status, text], what).toEqual([404, expect.stringContaining('no identity provider to sign in through')])
          break
        case 'own-session':
          if (!credential.session || credential.role === null) expect([res.status, text], what).toEqual([route === 'POST /signout' ? 403 : 401, route === 'POST /signout' ? "sign out needs the session's CSRF token (x-hookloop-csrf)\n" : 'not signed in\n'])
          // A session's post without its CSRF token is refused (the CSRF test below signs out with it).
          else expect(res.status, what).toBe(route === 'POST /signout' ? 403 : 200)
          break
        case 'page':
          if (!credential.session || credential.role === null) {
            expect([res.status, res.headers.get('location'), text], what).toEqual([303, '/signin', ''])
          } else {
            expect(res.status, what).toBe(200)
            expect(text, what).toContain('<script')
          }
          break
        case 'role':
          if (credential.role === null) {
            // 401, told nothing of why: a wrong and a revoked token read the same.
            expect([res.status, res.headers.get('www-authenticate')], what).toEqual([401, 'Bearer'])
            if (credential.headers.authorization) expect(text, what).toBe('unauthorized\n')
          } else if (!roleAtLeast(credential.role, decision.role)) {
            expect(res.status, what).toBe(403)
            expect(text, what).toMatch(new RegExp(`needs the ${decision.role} role; .* is ${article(credential.role)} ${credential.role}\\n$`))
          } else {
            expect([401, 403], what).not.toContain(res.status)
          }
          break
      }
    }
  })

  it('decides every command on the socket by its least role, before its request is read', async () => {
    // A request no command takes (`req: 0`): an admitted caller is answered bad_request and nothing
    // runs, so every command, Clear history and the tunnel included, is tried without its effect.
    const admitted = credentials.filter((c) => c.role !== null)
    for (const credential of admitted) {
      const ws = (await socket(socketHeaders(credential))) as WebSocket
      for (const [name, needed] of Object.entries(COMMAND_ROLES) as [CommandName, Role][]) {
        const answer = await command(ws, name, 0)
        const role = credential.role as Role
        const what = `${name} by ${credential.label}`
        if (roleAtLeast(role, needed)) {
          expect(answer.error?.code, what).toBe('bad_request')
        } else {
          expect(answer.error, what).toEqual({ code: 'forbidden', message: `${name} needs the ${needed} role; ${credential.session ? EMAILS[role] : `the token "${role} bot"`} is ${article(role)} ${role}` })
        }
      }
      ws.terminate()
    }
  })

  it('keeps an export\'s secrets for an admin only: a viewer exports, redacted', async () => {
    // Nothing selected: an admitted export answers bad_request and writes nothing.
    for (const credential of credentials.filter((c) => c.role !== null)) {
      const ws = (await socket(socketHeaders(credential))) as WebSocket
      const role = credential.role as Role
      const what = `export.selection with keepSecrets by ${credential.label}`
      const redacted = await command(ws, 'export.selection', { format: 'har', keepSecrets: false })
      expect(redacted.error?.code, credential.label).toBe('bad_request')
      const kept = await command(ws, 'export.selection', { format: 'har', keepSecrets: true })
      if (role === 'admin') expect(kept.error?.code, what).toBe('bad_request')
      else expect(kept.error, what).toEqual({ code: 'forbidden', message: `export.selection with keepSecrets needs the admin role; ${credential.session ? EMAILS[role] : `the token "${role} bot"`} is ${article(role)} ${role}` })
      ws.terminate()
    }
  })

  it("answers another workspace's ids, on every id-taking command and the body route, exactly as ids that do not exist, and lists none of it", async () => {
    // The first workspace's things: an endpoint with a rule and a captured request, a subscription
    // with a delivery, and a breakpoint.
    const admin = (await socket(socketHeaders(credentials.find((c) => c.label === "the admin's session") as Credential))) as WebSocket
    const endpoint = (await command(admin, 'endpoint.create', { name: 'Theirs', scheme: null, secrets: [], dedupe: null })) as { res: { id: string; slug: string } }
    const rule = (await command(admin, 'rule.addPreset', { endpointId: endpoint.res.id, preset: 'fail-first', parameters: { n: 1 } })) as { res: { id: string } }
    const subscription = (await command(admin, 'subscription.create', { name: 'Theirs out', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policyId: 'pandoktorek' })) as { res: { id: string } }
    const sent = (await command(admin, 'event.send', { subscriptionId: subscription.res.id, eventType: 'thing.happened', payload: '{}', count: 1, faults: [] })) as { res: { deliveryIds: number[] } }
    const snapshot = (await command(admin, 'snapshot', {})) as { res: { receiverUrl: string; storeWide: boolean } }
    // In default the store-wide commands run, and the snapshot says so (the UI shows their controls by it).
    expect(snapshot.res.storeWide).toBe(true)
    await fetch(`${snapshot.res.receiverUrl}/h/${endpoint.res.slug}`, { method: 'POST', body: '{"theirs":true}' })
    let request = 0
    for (let tries = 0; tries < 200 && request === 0; tries++) {
      const listed = (await command(admin, 'request.list', { endpoint: endpoint.res.id, limit: 10 })) as { res: { requests: { id: number }[] } }
      request = listed.res.requests[0]?.id ?? 0
      if (request === 0) await new Promise((done) => setTimeout(done, 50))
    }
    expect(request).toBeGreaterThan(0)
    const theirs = { endpoint: endpoint.res.id, rule: rule.res.id, subscription: subscription.res.id, delivery: sent.res.deliveryIds[0] ?? 0, request }
    const missing = { endpoint: 'ep-no-such', rule: 'rule-no-such', subscription: 'sub-no-such', delivery: 999_999_001, request: 999_999_002 }
    type Ids = typeof theirs
    // Each id-taking command, asked about ids: a request it takes.
    const asks: Record<string, (ids: Ids) => unknown> = {
      'delivery.get': (i) => ({ id: i.delivery }),
      'delivery.retryNow': (i) => ({ id: i.delivery }),
      'delivery.replay': (i) => ({ id: i.delivery }),
      'request.get': (i) => ({ id: i.request }),
      'request.resend': (i) => ({ id: i.request, mode: 'as-is', to: 'http://127.0.0.1:9/' }),
      'request.explainSignature': (i) => ({ id: i.request }),
      'endpoint.setForwardTo': (i) => ({ id: i.endpoint, forwardTo: [] }),
      'endpoint.setDedupe': (i) => ({ id: i.endpoint, dedupe: null }),
      'endpoint.delete': (i) => ({ id: i.endpoint }),
      'endpoint.trigger': (i) => ({ endpoint: i.endpoint, provider: 'github', eventType: 'ping' }),
      'rule.addPreset': (i) => ({ endpointId: i.endpoint, preset: 'fail-first', parameters: { n: 1 } }),
      'rule.update': (i) => ({ id: i.rule, definition: {} }),
      'rule.setEnabled': (i) => ({ id: i.rule, enabled: false }),
      'rule.move': (i) => ({ id: i.rule, position: 0 }),
      'rule.delete': (i) => ({ id: i.rule }),
      'subscription.create': (i) => ({ name: 'mine', target: { endpointId: i.endpoint }, scheme: 'standard-webhooks', policyId: 'pandoktorek' }),
      'subscription.setPaused': (i) => ({ id: i.subscription, paused: true }),
      'subscription.rotateSecret': (i) => ({ id: i.subscription }),
      'event.send': (i) => ({ subscriptionId: i.subscription, eventType: 'thing.happened', payload: '{}', count: 1, faults: [] }),
      'held.release': (i) => ({ requestId: i.request }),
      'held.answer': (i) => ({ requestId: i.request, answer: { status: 200 } }),
      'held.drop': (i) => ({ requestId: i.request }),
      'breakpoint.put': (i) => ({ breakpoint: { endpointId: i.endpoint } }),
      'history.clear': (i) => ({ endpointId: i.endpoint }),
      'check.sender': (i) => ({ endpointId: i.endpoint, policyId: 'pandoktorek' }),
      'import.replay': (i) => ({ text: JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [] } }), target: { endpointId: i.endpoint } }),
      'export.selection': (i) => ({ deliveryIds: [i.delivery], requestIds: [i.request], format: 'har' }),
    }
    expect(new Set(Object.keys(asks))).toEqual(new Set(Object.keys(SCOPED_IDS)))
    // An answer with the ids it names put as words, to compare answers about different ids.
    const said = (answer: unknown, ids: Ids) =>
      // An id stands alone: after #, a space or a quote, and before a space, a quote or the end.
      Object.values(ids).reduce<string>((text, id) => text.replace(new RegExp(`(?<=[#\\s"])${String(id)}(?=[\\s"\\\\]|$)`, 'g'), '<id>'), JSON.stringify(answer))
    const others: { label: string; headers: Record<string, string> }[] = [
      { label: "the other workspace's session", headers: { cookie: other.session, origin } },
      { label: "the other workspace's token", headers: { authorization: `Bearer ${other.token}` } },
    ]
    for (const { label, headers } of others) {
      const ws = (await socket(headers)) as WebSocket
      expect(ws, label).toBeInstanceOf(WebSocket)
      for (const [name, ask] of Object.entries(asks)) {
        const asTheirs = (await command(ws, name, ask(theirs))) as { ok: boolean; res?: unknown; error?: unknown }
        const asMissing = (await command(ws, name, ask(missing))) as { ok: boolean; res?: unknown; error?: unknown }
        expect(said(asTheirs.ok ? { ok: true } : asTheirs.error, theirs), `${name} by ${label}`).toBe(said(asMissing.ok ? { ok: true } : asMissing.error, missing))
      }
      // The lists hold none of it.
      const seen = (await command(ws, 'snapshot', {})) as { res: { endpoints: unknown[]; rules: unknown[]; subscriptions: unknown[]; breakpoints: { breakpoints: unknown[] } } }
      expect([seen.res.endpoints, seen.res.rules, seen.res.subscriptions, seen.res.breakpoints.breakpoints], label).toEqual([[], [], [], []])
      // Nor does the timeline: neither the request nor the delivery.
      expect((await command(ws, 'timeline.page', { offset: 0, limit: 100 })).res, label).toEqual({ rows: [], total: 0 })
      // Nor the history's count, nor the store-wide commands' reports (the admin's request is there).
      expect((await command(ws, 'history.size', {})).res, label).toMatchObject({ requests: 0, oldestAt: null })
      expect((await command(ws, 'snapshot', {})).res, label).toMatchObject({ simulations: [], recording: { active: false }, scenarioRun: null, storeWide: false })
      // Nor the lists a script reads; naming its endpoint or subscription is as naming none.
      expect((await command(ws, 'request.list', { limit: 100 })).res, label).toEqual({ requests: [] })
      expect((await command(ws, 'delivery.list', { limit: 100 })).res, label).toEqual({ deliveries: [] })
      for (const [name, ask] of [
        ['request.list', (i: Ids) => ({ endpoint: i.endpoint, limit: 10 })],
        ['delivery.list', (i: Ids) => ({ subscription: i.subscription, limit: 10 })],
      ] as const) {
        const asTheirs = (await command(ws, name, ask(theirs))) as { error?: unknown }
        const asMissing = (await command(ws, name, ask(missing))) as { error?: unknown }
        expect(said(asTheirs.error, theirs), `${name} by ${label}`).toBe(said(asMissing.error, missing))
      }
      // What acts on the whole store is default's: refused before it runs, whatever it asked.
      const storeWide: Record<string, unknown> = { 'clock.set': { mode: 'virtual' }, 'loop.try': {}, 'record.start': {}, 'record.stop': {}, 'tunnel.stop': {}, 'scenario.cancel': { runId: 0 } }
      for (const [name, req] of Object.entries(storeWide)) {
        expect(STORE_WIDE, name).toContain(name)
        expect((await command(ws, name, req)).error, `${name} by ${label}`).toEqual({ code: 'forbidden', message: `${name} acts on the whole store, which every workspace shares: run it in the default workspace` })
      }
      // Clear history of "every endpoint" is every endpoint of theirs: the first workspace's request stays (its body is read below).
      const cleared = (await command(ws, 'history.clear', {})) as { res?: { deleted: number }; error?: unknown }
      expect(cleared.error, label).toBeUndefined()
      expect(cleared.res?.deleted, label).toBe(0)
      // The body route: the same 404 as for a request that does not exist.
      const body = async (id: number) => {
        const res = await fetch(`${origin}${requestBodyPath(id)}`, { headers })
        return [res.status, (await res.text()).split(String(id)).join('<id>')]
      }
      expect(await body(theirs.request), label).toEqual(await body(missing.request))
      expect(await body(theirs.request), label).toEqual([404, 'request #<id> does not exist\n'])
      ws.terminate()
    }
    // Nothing of the first workspace was changed by the other's attempts.
    const after = (await command(admin, 'snapshot', {})) as { res: { endpoints: { id: string }[]; rules: { id: string; enabled: boolean }[]; subscriptions: { id: string; paused: boolean }[] } }
    expect(after.res.endpoints.map((e) => e.id)).toContain(theirs.endpoint)
    expect(after.res.rules.find((r) => r.id === theirs.rule)).toMatchObject({ enabled: true })
    expect(after.res.subscriptions.find((s) => s.id === theirs.subscription)).toMatchObject({ paused: false })
    const bodyOfTheirs = await fetch(`${origin}${requestBodyPath(theirs.request)}`, { headers: { authorization: `Bearer ${secrets[0]}` } })
    expect([bodyOfTheirs.status, await bodyOfTheirs.text()]).toEqual([200, '{"theirs":true}'])
    admin.terminate()
  })

  it('shows the app without a session only as the sign-in page, with no data in it', async () => {
    const app = await fetch(`${origin}/`)
    expect(app.url).toBe(`${origin}/signin`)
    const page = await app.text()
    expect(page).toContain('name="password"')
    expect(page).not.toContain('<script')
    expect(page).not.toContain(EMAILS.admin)
  })

  it('gives a new session at sign-in: a session id set before it is not one after', async () => {
    const planted = 'hookloop_session=planted-before-sign-in'
    const signed = await signIn(EMAILS.viewer, PASSWORDS.viewer, planted)
    expect(signed.status).toBe(303)
    const session = cookieOf(signed, 'hookloop_session') ?? ''
    expect(session).toMatch(/^hookloop_session=.{20,}/)
    expect(session).not.toBe(planted)
    expect((await fetch(`${origin}/account/me`, { headers: { cookie: planted } })).status).toBe(401)
    expect((await fetch(`${origin}/account/me`, { headers: { cookie: session } })).status).toBe(200)
  })

  it("refuses a cookie-authenticated write without its CSRF token or from another origin's page", async () => {
    // Sign-in: the pre-session cookie's token is needed, and our Origin.
    const page = await fetch(`${origin}/signin`)
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
    const preSession = cookieOf(page, 'hookloop_csrf') ?? ''
    const post = (cookie: string, form: Record<string, string>, from = origin) =>
      fetch(`${origin}/signin`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: from }, body: new URLSearchParams(form).toString() })
    const person = { email: EMAILS.editor, password: PASSWORDS.editor }
    expect((await post(preSession, { ...person, csrf: 'x'.repeat(43) })).status).toBe(403)
    expect((await post('', { ...person, csrf })).status).toBe(403)
    expect((await post(preSession, { ...person, csrf }, 'https://elsewhere.example')).status).toBe(403)

    // Joining: a live link's form posted without the pre-session cookie's token is refused.
    const admin = (await socket(socketHeaders(credentials.find((c) => c.label === "the admin's session") as Credential))) as WebSocket
    const invite = (await command(admin, 'member.invite', { role: 'viewer' })) as { res: { link: string } }
    const link = new URL(invite.res.link).searchParams.get('link') ?? ''
    const join = (cookie: string, token: string) =>
      fetch(`${origin}/join`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin },
        body: new URLSearchParams({ csrf: token, link, email: 'mallory@example.com', name: 'm', password: 'mallory staple battery' }).toString(),
      })
    expect((await join(preSession, 'x'.repeat(43))).status).toBe(403)
    expect((await join('', csrf)).status).toBe(403)

    // The socket a session opens: another site's page is refused before the cookie counts.
    const session = cookieOf(await signIn(EMAILS.editor, PASSWORDS.editor), 'hookloop_session') ?? ''
    expect(await socket({ cookie: session, origin: 'https://elsewhere.example' })).toEqual({ status: 403, text: 'foreign Origin\n' })

    // A body uploaded with the session's cookie: from our page only (a page on another port of
    // this host is the same site, and its post would carry the cookie).
    const upload = (headers: Record<string, string>) => fetch(`${origin}${BODY_UPLOAD_PATH}`, { method: 'POST', headers: { cookie: session, ...headers }, body: 'hello' })
    const foreign = await upload({ origin: 'http://127.0.0.1:1' })
    expect([foreign.status, await foreign.text()]).toEqual([403, 'foreign Origin\n'])
    expect((await upload({})).status).toBe(403)
    expect((await upload({ origin })).status).toBe(200)

    // Sign-out: the session's CSRF token, from our Origin; then the session is gone.
    const me = (await (await fetch(`${origin}/account/me`, { headers: { cookie: session } })).json()) as { csrf: string }
    const signOut = (headers: Record<string, string>) => fetch(`${origin}/signout`, { method: 'POST', headers: { cookie: session, ...headers } })
    expect((await signOut({ 'x-hookloop-csrf': 'x'.repeat(43), origin })).status).toBe(403)
    expect((await signOut({ 'x-hookloop-csrf': me.csrf, origin: 'https://elsewhere.example' })).status).toBe(403)
    expect((await signOut({ 'x-hookloop-csrf': me.csrf, origin })).status).toBe(204)
    expect((await fetch(`${origin}/account/me`, { headers: { cookie: session } })).status).toBe(401)
  })

  it('keeps every password and token out of the output, the audit and /metrics', async () => {
    const admin = (await socket(socketHeaders(credentials.find((c) => c.label === "the admin's session") as Credential))) as WebSocket
    const audit = (await command(admin, 'audit.list', { offset: 0, limit: 200 })) as { ok: boolean; res: unknown }
    expect(audit.ok).toBe(true)
    const metrics = await (await fetch(`${origin}/metrics`)).text()
    const kept = { output, audit: JSON.stringify(audit.res), metrics }
    for (const [where, text] of Object.entries(kept)) {
      for (const secret of secrets) expect(text, where).not.toContain(secret.slice(4))
      for (const password of Object.values(PASSWORDS)) expect(text, where).not.toContain(password)
    }
    // The audit did record the account events and the tokens made: it was looked at, not empty.
    expect(kept.audit).toContain('token.create')
  })

  it('limits sign-in attempts: past the limit even the right password is 429 with Retry-After', async () => {
    let last: Response | undefined
    for (let attempt = 0; attempt < 20 && last?.status !== 429; attempt++) last = await signIn(EMAILS.admin, 'not the password')
    expect(last?.status).toBe(429)
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
    const right = await signIn(EMAILS.admin, PASSWORD)
    expect([right.status, cookieOf(right, 'hookloop_session')]).toEqual([429, undefined])
  })
})
