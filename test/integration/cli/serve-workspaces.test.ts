// Workspaces of `hookloop serve --accounts` from the build, on a data folder and a team's
// PostgreSQL: a member lists their workspaces and moves their session to another (the socket
// looking at the old one is closed, a new one acts in the new one); an invite is to the inviter's
// workspace; members are added, given a role, removed per workspace (never the last admin); a
// token acts in the workspace it was made in and cannot switch; tokens and the audit are listed
// per workspace. And the journey: endpoints made in each workspace, a member of the second sees its
// endpoints and none of the first's, and its token is told the first's request does not exist. The
// second workspace is put in the store beside the running server, as another process on the same
// store would.
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createWorkspaceStore, openStore, parseStoreLocation } from '../../../electron/engine/store'
import { SIGNED_OUT_CLOSE_CODE } from '../../../shared/contract'
import { requestBodyPath } from '../../../shared/contract'
import { command, cookieOf, servedStores, servedWithAdmin, signIn, tokenSocket, tryJoin } from '../../support/accounts-serve'
import { usePostgres } from '../../support/use-postgres'

const PASSWORD = 'correct horse battery'
const cleanups: (() => void)[] = []
const postgres = usePostgres()
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

const closed = (ws: WebSocket): Promise<number> => new Promise((done) => (ws.readyState === WebSocket.CLOSED ? done(-1) : ws.once('close', (code) => done(code))))

describe.each(Object.entries(servedStores(postgres, cleanups)))('workspaces of hookloop serve --accounts on %s', (_kind, storeOf) => {
  it('switch a session, scope invites, members, tokens and the audit to the workspace acted in', async () => {
    const { store, serve, open, sockets } = await servedWithAdmin(storeOf, PASSWORD, cleanups)

    const ada = await signIn(serve.origin, 'ada@example.com', PASSWORD)
    let admin = await open(ada)
    expect((await command(admin, 'workspace.list')).res).toEqual({ workspaces: [{ id: 'default', name: 'default', role: 'admin' }], current: 'default' })

    // A second workspace with Ada as its admin, made by another process on the store.
    const location = parseStoreLocation(store.env.HOOKLOOP_STORE ?? store.args[1] ?? '')
    const beside = await openStore(location, { notice: () => undefined, withoutSecrets: true })
    const workspaces = createWorkspaceStore(beside.engine)
    await workspaces.insert({ id: 'ws_pay', name: 'Payments', createdAt: 1 })
    const adaId = (await workspaces.members('default'))[0]?.accountId ?? ''
    await workspaces.setMembership(adaId, 'ws_pay', 'admin', 1)
    await beside.engine.close()

    // Moving the session closes the socket that looked at default; a new one acts in Payments.
    const before = admin
    const gone = closed(before)
    expect((await command(admin, 'workspace.switch', { id: 'ws_pay' })).res).toEqual({ id: 'ws_pay', name: 'Payments', role: 'admin' })
    expect(await gone).toBe(SIGNED_OUT_CLOSE_CODE)
    admin = await open(ada)
    expect((await command(admin, 'workspace.list')).res).toEqual({
      workspaces: [
        { id: 'ws_pay', name: 'Payments', role: 'admin' },
        { id: 'default', name: 'default', role: 'admin' },
      ],
      current: 'ws_pay',
    })
    expect((await command(admin, 'workspace.switch', { id: 'nowhere' })).error).toEqual({ code: 'not_found', message: 'no workspace nowhere' })

    // An invite from Payments makes a member of Payments only.
    const invite = await command(admin, 'member.invite', { role: 'editor' })
    const joined = await tryJoin(invite.res.link, { email: 'bob@example.com', password: PASSWORD })
    const bob = cookieOf(joined, 'hookloop_session')
    const bobs = await open(bob)
    expect((await command(bobs, 'workspace.list')).res).toEqual({ workspaces: [{ id: 'ws_pay', name: 'Payments', role: 'editor' }], current: 'ws_pay' })
    expect((await command(admin, 'member.list')).res.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['ada@example.com', 'admin'],
      ['bob@example.com', 'editor'],
    ])
    expect((await command(bobs, 'workspace.switch', { id: 'default' })).error).toEqual({ code: 'not_found', message: 'no workspace default' })

    // A token made in Payments acts there, lists there, and cannot switch.
    const made = await command(admin, 'token.create', { name: 'pay bot', role: 'viewer' })
    expect(made.res.token).toMatchObject({ workspaceId: 'ws_pay', role: 'viewer' })
    const bot = await tokenSocket(serve.origin, made.res.secret)
    sockets.push(bot)
    expect((await command(bot, 'workspace.list')).res).toEqual({ workspaces: [{ id: 'ws_pay', name: 'Payments', role: 'viewer' }], current: 'ws_pay' })
    expect((await command(bot, 'workspace.switch', { id: 'default' })).error?.code).toBe('forbidden')

    // Back in default: Bob is added there as a viewer, then removed; Ada, its last admin, cannot be.
    let closing = closed(admin)
    await command(admin, 'workspace.switch', { id: 'default' })
    await closing
    admin = await open(ada)
    expect((await command(admin, 'member.list')).res.members.map((m: { email: string }) => m.email)).toEqual(['ada@example.com'])
    expect((await command(admin, 'token.list')).res.tokens).toEqual([])
    // Payments' token is not default's to revoke: it reads as one that does not exist.
    expect((await command(admin, 'token.revoke', { id: made.res.token.id })).error).toEqual({ code: 'not_found', message: `no token ${made.res.token.id}` })
    expect((await command(admin, 'member.add', { email: 'BOB@example.com', role: 'viewer' })).res).toMatchObject({ email: 'bob@example.com', role: 'viewer', workspaceId: 'default' })
    expect((await command(admin, 'member.add', { email: 'bob@example.com', role: 'editor' })).error?.code).toBe('conflict')
    expect((await command(admin, 'member.add', { email: 'nobody@example.com', role: 'editor' })).error?.code).toBe('not_found')
    const bobId = (await command(admin, 'member.list')).res.members[1].id as string
    expect((await command(admin, 'member.setRole', { id: bobId, role: 'editor' })).res).toMatchObject({ role: 'editor' })
    expect((await command(bobs, 'workspace.list')).res.workspaces.map((w: { name: string; role: string }) => [w.name, w.role])).toEqual([
      ['Payments', 'editor'],
      ['default', 'editor'],
    ])
    expect((await command(admin, 'member.remove', { id: bobId })).res).toMatchObject({ email: 'bob@example.com' })
    expect((await command(admin, 'member.remove', { id: bobId })).error?.code).toBe('not_found')
    expect((await command(admin, 'member.remove', { id: adaId })).error).toEqual({ code: 'conflict', message: 'this is the last admin of this workspace: make another admin first' })
    // Bob is still a member of Payments, with his role there.
    expect((await command(bobs, 'workspace.list')).res.workspaces).toEqual([{ id: 'ws_pay', name: 'Payments', role: 'editor' }])

    // Each workspace's audit holds what was done in it.
    const audit = async (ws: WebSocket) => ((await command(ws, 'audit.list', {})).res.entries as { command: string }[]).map((e) => e.command)
    expect(await audit(admin)).toEqual(expect.arrayContaining(['member.add', 'member.setRole', 'member.remove']))
    expect(await audit(admin)).not.toContain('token.create')
    closing = closed(admin)
    await command(admin, 'workspace.switch', { id: 'ws_pay' })
    await closing
    admin = await open(ada)
    expect(await audit(admin)).toEqual(expect.arrayContaining(['member.invite', 'account.join', 'token.create']))
    expect(await audit(admin)).not.toContain('member.add')
  })

  it('make a workspace: an admin of one, signed in, becomes the new one\'s admin; its name is checked and taken once', async () => {
    const { serve, open, sockets } = await servedWithAdmin(storeOf, PASSWORD, cleanups)
    const ada = await signIn(serve.origin, 'ada@example.com', PASSWORD)
    let admin = await open(ada)
    const made = await command(admin, 'workspace.create', { name: '  Payments ' })
    expect(made.res).toEqual({ id: expect.stringMatching(/^ws_[0-9a-f]{16}$/), name: 'Payments', role: 'admin' })
    const id = (made.res as { id: string }).id
    // The session stays where it was, and now has a menu of two.
    expect((await command(admin, 'workspace.list')).res).toEqual({
      // By name.
      workspaces: [
        { id, name: 'Payments', role: 'admin' },
        { id: 'default', name: 'default', role: 'admin' },
      ],
      current: 'default',
    })
    expect((await command(admin, 'workspace.create', { name: 'Payments' })).error).toEqual({ code: 'conflict', message: 'a workspace named "Payments" exists already: pick another name' })
    expect((await command(admin, 'workspace.create', { name: 'Pay\nments' })).error?.code).toBe('bad_request')
    expect((await command(admin, 'workspace.create', { name: '   ' })).error?.code).toBe('bad_request')
    // Written in the audit of the workspace it was made from.
    expect(((await command(admin, 'audit.list', {})).res.entries as { command: string }[]).map((e) => e.command)).toContain('workspace.create')

    // A viewer may not; nor may a token, whatever its role.
    const invite = await command(admin, 'member.invite', { role: 'viewer' })
    const vic = await open(cookieOf(await tryJoin(invite.res.link, { email: 'vic@example.com', password: PASSWORD }), 'hookloop_session'))
    expect((await command(vic, 'workspace.create', { name: 'Mine' })).error).toEqual({ code: 'forbidden', message: 'workspace.create needs the admin role; vic@example.com is a viewer' })
    const token = (await command(admin, 'token.create', { name: 'ci', role: 'admin' })).res.secret as string
    const bot = await tokenSocket(serve.origin, token)
    sockets.push(bot)
    expect((await command(bot, 'workspace.create', { name: 'Bots' })).error?.code).toBe('forbidden')

    // In it, Ada starts from nothing: none of default's endpoints.
    await command(admin, 'endpoint.create', { name: 'Shop', scheme: null, secrets: [], dedupe: null })
    const moved = closed(admin)
    await command(admin, 'workspace.switch', { id })
    await moved
    admin = await open(ada)
    expect((await command(admin, 'snapshot')).res.endpoints).toEqual([])
  })

  it('keep each workspace\'s endpoints and history to its members and tokens', async () => {
    const { store, serve, open, sockets } = await servedWithAdmin(storeOf, PASSWORD, cleanups)
    const ada = await signIn(serve.origin, 'ada@example.com', PASSWORD)
    let admin = await open(ada)

    // The first workspace's endpoint, and a request captured at it.
    const shop = (await command(admin, 'endpoint.create', { name: 'Shop', scheme: null, secrets: [], dedupe: null })).res as { id: string; slug: string }
    const { receiverUrl } = (await command(admin, 'snapshot')).res as { receiverUrl: string }
    expect((await fetch(`${receiverUrl}/h/${shop.slug}`, { method: 'POST', body: '{"order":1}' })).status).toBeLessThan(500)
    let shopRequest = 0
    for (let tries = 0; tries < 200 && shopRequest === 0; tries++) {
      shopRequest = ((await command(admin, 'request.list', { endpoint: shop.id, limit: 5 })).res.requests[0]?.id as number | undefined) ?? 0
      if (shopRequest === 0) await new Promise((done) => setTimeout(done, 50))
    }
    expect(shopRequest).toBeGreaterThan(0)

    // The second workspace, its admin Ada (made beside the server).
    const beside = await openStore(parseStoreLocation(store.env.HOOKLOOP_STORE ?? store.args[1] ?? ''), { notice: () => undefined, withoutSecrets: true })
    const workspaces = createWorkspaceStore(beside.engine)
    await workspaces.insert({ id: 'ws_pay', name: 'Payments', createdAt: 1 })
    await workspaces.setMembership((await workspaces.members('default'))[0]?.accountId ?? '', 'ws_pay', 'admin', 1)
    await beside.engine.close()
    const moved = closed(admin)
    await command(admin, 'workspace.switch', { id: 'ws_pay' })
    await moved
    admin = await open(ada)
    expect((await command(admin, 'snapshot')).res.endpoints).toEqual([])
    const pay = (await command(admin, 'endpoint.create', { name: 'Pay', scheme: null, secrets: [], dedupe: null })).res as { id: string; slug: string }

    // A member invited to Payments only sees its endpoint, and none of default's.
    const invite = await command(admin, 'member.invite', { role: 'editor' })
    const bob = cookieOf(await tryJoin(invite.res.link, { email: 'bob@example.com', password: PASSWORD }), 'hookloop_session')
    const bobs = await open(bob)
    expect(((await command(bobs, 'snapshot')).res.endpoints as { id: string }[]).map((e) => e.id)).toEqual([pay.id])
    expect((await command(bobs, 'endpoint.delete', { id: shop.id })).error).toEqual({ code: 'not_found', message: `endpoint ${shop.id} does not exist` })

    // The rows pushed to his socket as requests arrive are Payments' only: Shop's request, sent
    // first, is not among what he was pushed by the time Pay's arrives.
    const pushed: { endpointId: string | null }[] = []
    const payRow = new Promise<void>((done) =>
      bobs.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as { t: string; batch?: { name: string; payload: { rows?: { endpointId: string | null }[] } }[] }
        for (const event of frame.batch ?? []) if (event.name === 'timeline.upsert') pushed.push(...(event.payload.rows ?? []))
        if (pushed.some((row) => row.endpointId === pay.id)) done()
      }),
    )
    await fetch(`${receiverUrl}/h/${shop.slug}`, { method: 'POST', body: '{"order":2}' })
    await fetch(`${receiverUrl}/h/${pay.slug}`, { method: 'POST', body: '{"payment":1}' })
    await payRow
    expect(pushed.filter((row) => row.endpointId !== pay.id)).toEqual([])
    // His timeline holds Payments' request only.
    const page = (await command(bobs, 'timeline.page', { offset: 0, limit: 100 })).res as { rows: { endpointId: string | null }[]; total: number }
    expect([page.rows.map((row) => row.endpointId), page.total]).toEqual([[pay.id], 1])

    // A token of Payments: default's request does not exist for it, by command or by body route.
    const token = (await command(admin, 'token.create', { name: 'pay bot', role: 'viewer' })).res.secret as string
    const bot = await tokenSocket(serve.origin, token)
    sockets.push(bot)
    expect((await command(bot, 'request.get', { id: shopRequest })).error).toEqual({ code: 'not_found', message: `request #${shopRequest} does not exist` })
    const body = await fetch(`${serve.origin}${requestBodyPath(shopRequest)}`, { headers: { authorization: `Bearer ${token}` } })
    expect([body.status, await body.text()]).toEqual([404, `request #${shopRequest} does not exist\n`])

    // Back in default, Ada sees Shop and its request, and not Pay.
    const back = closed(admin)
    await command(admin, 'workspace.switch', { id: 'default' })
    await back
    admin = await open(ada)
    expect(((await command(admin, 'snapshot')).res.endpoints as { id: string }[]).map((e) => e.id)).toEqual([shop.id])
    expect((await command(admin, 'request.get', { id: shopRequest })).ok).toBe(true)
    const shopPage = (await command(admin, 'timeline.page', { offset: 0, limit: 100 })).res as { rows: { endpointId: string | null }[] }
    expect(new Set(shopPage.rows.map((row) => row.endpointId))).toEqual(new Set([shop.id]))

    // A request Shop's breakpoint holds, and its release, are told to default's sockets only.
    const holds = (ws: WebSocket, into: string[]) =>
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as { batch?: { name: string }[] }
        for (const event of frame.batch ?? []) if (event.name.startsWith('breakpoint.') && event.name !== 'breakpoints.changed') into.push(event.name)
      })
    const toAda: string[] = []
    const toBob: string[] = []
    holds(admin, toAda)
    holds(bobs, toBob)
    await command(admin, 'breakpoint.put', { breakpoint: { endpointId: shop.id, matchers: [{ type: 'method', method: 'POST' }], limitMs: 60_000 } })
    const answered = fetch(`${receiverUrl}/h/${shop.slug}`, { method: 'POST', body: '{"order":3}' })
    while (!toAda.includes('breakpoint.held')) await new Promise((done) => setTimeout(done, 20))
    const held = ((await command(admin, 'breakpoint.list')).res as { held: { requestId: number }[] }).held
    await command(admin, 'held.release', { requestId: held[0]!.requestId })
    expect((await answered).status).toBe(200)
    while (!toAda.includes('breakpoint.released')) await new Promise((done) => setTimeout(done, 20))
    // Bob's socket has had the time Ada's took, and more: a request of Payments reaches him after.
    await fetch(`${receiverUrl}/h/${pay.slug}`, { method: 'POST', body: '{"payment":2}' })
    const before = pushed.length
    while (pushed.length === before) await new Promise((done) => setTimeout(done, 20))
    expect(toBob).toEqual([])
  })
})
