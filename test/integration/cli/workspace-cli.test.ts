// `hookloop workspace` from the build, beside a running `hookloop serve --accounts` on a data folder
// and on a team's PostgreSQL: a workspace made with an existing account as its admin (its id alone
// on stdout; a taken name and an unknown account are exit 1), listed with its members, an existing
// account added to it (a member already is exit 1); the server sees both at once (the admin's and
// the member's workspace.list, a token made for it with `hookloop token create --workspace`), and
// the workspace's audit holds the changes as the command line's. Its usage errors, exit 2.
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { command, servedStores, servedWithAdmin, sessionSocket, signIn, tokenSocket, tryJoin } from '../../support/accounts-serve'
import { runCli } from '../../support/run-cli'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const PASSWORD = 'correct horse battery'
const cleanups: (() => void)[] = []
const postgres = usePostgres()
const temp = useTempDir()
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

describe.each(Object.entries(servedStores(postgres, cleanups)))('hookloop workspace beside hookloop serve --accounts on %s', (_kind, storeOf) => {
  it('makes a workspace with an existing admin, lists it, adds a member, and the server sees them', async () => {
    const { store, serve, sockets } = await servedWithAdmin(storeOf, PASSWORD, cleanups)
    // The CLI names the store as an operator does: the folder, or the team's URL (its data key unneeded).
    const where = store.args.length > 0 ? store.args : ['--store', store.env.HOOKLOOP_STORE ?? '']
    const env = { env: { ...process.env, HOOKLOOP_SECRET_KEY_FILE: '', HOOKLOOP_SECRET_KEY: '', HOOKLOOP_STORE: '' } }
    const cli = (args: string[]) => runCli([...args, ...where], env)

    const made = await cli(['workspace', 'create', 'Payments', '--admin', 'ada@example.com'])
    expect(made.code, made.stderr).toBe(0)
    expect(made.stdout).toMatch(/^ws_[0-9a-f]{16}\n$/)
    const id = made.stdout.trim()
    expect(made.stderr).toContain(`made the workspace "Payments" (${id}) in `)
    // The name is the workspace.create command's to check: taken once, whatever asks.
    const again = await cli(['workspace', 'create', 'Payments', '--admin', 'ada@example.com'])
    expect([again.code, again.stdout, again.stderr]).toEqual([1, '', 'hookloop: workspace: a workspace named "Payments" exists already: pick another name\n'])
    const nobody = await cli(['workspace', 'create', 'Ledger', '--admin', 'nobody@example.com'])
    expect([nobody.code, nobody.stdout, nobody.stderr]).toEqual([1, '', expect.stringContaining('hookloop: workspace: no account for nobody@example.com in ')])

    // The server sees it at once: Ada's workspaces, and a token made for it acts in it.
    const ada = await signIn(serve.origin, 'ada@example.com', PASSWORD)
    const admin = await sessionSocket(serve.origin, ada)
    sockets.push(admin)
    expect((await command(admin, 'workspace.list')).res).toEqual({
      workspaces: [
        { id, name: 'Payments', role: 'admin' },
        { id: 'default', name: 'default', role: 'admin' },
      ],
      current: 'default',
    })
    const token = await runCli(['token', 'create', '--name', 'pay bot', '--role', 'editor', '--workspace', 'Payments', ...where], env)
    expect(token.code, token.stderr).toBe(0)
    const bot = await tokenSocket(serve.origin, token.stdout.trim())
    sockets.push(bot)
    expect((await command(bot, 'workspace.list')).res).toEqual({ workspaces: [{ id, name: 'Payments', role: 'editor' }], current: id })

    // Bob joins default by an invite; the command line adds him to Payments, once.
    const invite = (await command(admin, 'member.invite', { role: 'viewer' })).res as { link: string }
    expect((await tryJoin(invite.link, { email: 'bob@example.com', password: PASSWORD })).status).toBe(303)
    const added = await cli(['workspace', 'add-member', 'Payments', '--email', 'bob@example.com', '--role', 'editor', '--json'])
    expect(added.code, added.stderr).toBe(0)
    expect(JSON.parse(added.stdout)).toMatchObject({ member: { email: 'bob@example.com', role: 'editor', workspaceId: id } })
    const twice = await cli(['workspace', 'add-member', 'Payments', '--email', 'bob@example.com', '--role', 'viewer'])
    expect([twice.code, twice.stderr]).toEqual([1, 'hookloop: workspace: bob@example.com is a member already: change their role instead\n'])
    const nowhere = await cli(['workspace', 'add-member', 'Nowhere', '--email', 'bob@example.com', '--role', 'viewer'])
    expect([nowhere.code, nowhere.stderr]).toEqual([1, expect.stringContaining('hookloop: workspace: no workspace named "Nowhere" in ')])
    const bobSocket = await sessionSocket(serve.origin, await signIn(serve.origin, 'bob@example.com', PASSWORD))
    sockets.push(bobSocket)
    expect(((await command(bobSocket, 'workspace.list')).res as { workspaces: unknown[] }).workspaces).toEqual([
      { id, name: 'Payments', role: 'editor' },
      { id: 'default', name: 'default', role: 'viewer' },
    ])

    // The list: every workspace by name (as the store orders it, capitals first), with its members.
    const listed = JSON.parse((await cli(['workspace', 'list', '--json'])).stdout) as { workspaces: { id: string; name: string; createdAt: number; members: { email: string; role: string }[] }[] }
    expect(listed.workspaces.map((w) => [w.name, w.id, w.members.map((m) => `${m.email} ${m.role}`)])).toEqual([
      ['Payments', id, ['ada@example.com admin', 'bob@example.com editor']],
      ['default', 'default', ['ada@example.com admin', 'bob@example.com viewer']],
    ])
    const table = (await cli(['workspace', 'list'])).stdout.split('\n')
    expect(table[0]).toMatch(/^NAME +ID +MEMBERS +ADMINS +CREATED$/)
    expect(table.find((line) => line.startsWith('Payments'))).toMatch(new RegExp(`^Payments +${id} +2 +ada@example.com +\\d{4}-\\d\\d-\\d\\dT\\S+Z$`))
    // default was made with the store (its migration), not at a date: said so, never 1970.
    expect(table.find((line) => line.startsWith('default'))).toMatch(/^default +default +2 +ada@example.com +with the store$/)

    // Payments' audit holds both changes, the command line's.
    const gone = new Promise((done) => admin.once('close', done))
    expect((await command(admin, 'workspace.switch', { id })).ok).toBe(true)
    await gone
    const inPayments = await sessionSocket(serve.origin, ada)
    sockets.push(inPayments)
    const audit = (await command(inPayments, 'audit.list', { actor: 'local' })).res as { entries: { actor: string; via: string; command: string; target: unknown; summary: string }[] }
    expect(audit.entries.map((e) => [e.actor, e.via, e.command, e.target, e.summary])).toEqual([
      ['local', 'cli', 'member.add', null, 'member.add · role editor'],
      ['local', 'cli', 'workspace.create', { kind: 'workspace', id }, `workspace.create · "Payments" · workspace ${id}`],
    ])
  })
})

describe('hookloop workspace', () => {
  it('says what is wrong with its usage, exit 2', async () => {
    new BetterSqlite3(join(temp.dir, 'hookloop.db')).close()
    const usage = async (args: string[]) => {
      const r = await runCli(['workspace', ...args, '--data', temp.dir])
      return [r.code, r.stderr.trim()]
    }
    expect(await usage(['create', 'Payments'])).toEqual([2, 'hookloop: workspace: create needs --admin EMAIL (an existing account, its admin)'])
    expect(await usage(['create', '--admin', 'ada@example.com'])).toEqual([2, 'hookloop: workspace: give exactly one NAME (hookloop workspace --help)'])
    expect(await usage(['create', ' ', '--admin', 'ada@example.com'])).toEqual([2, 'hookloop: workspace: a workspace needs a name'])
    expect(await usage(['create', 'x'.repeat(65), '--admin', 'ada@example.com'])).toEqual([2, 'hookloop: workspace: the name is longer than 64 characters'])
    expect(await usage(['create', 'Pay\tments', '--admin', 'ada@example.com'])).toEqual([2, 'hookloop: workspace: the name has a control character (NUL, a tab, a newline …): type it again'])
    expect(await usage(['create', 'Payments', '--admin', 'ada@example.com', '--role', 'admin'])).toEqual([2, 'hookloop: workspace: --role is for `workspace add-member`'])
    expect(await usage(['add-member', 'Payments', '--email', 'bob@example.com'])).toEqual([2, 'hookloop: workspace: add-member needs --email EMAIL and --role ROLE (viewer, editor or admin)'])
    expect(await usage(['add-member', 'Payments', '--email', 'bob@example.com', '--role', 'owner'])).toEqual([2, 'hookloop: workspace: --role must be one of viewer, editor, admin, got "owner"'])
    expect(await usage(['list', 'extra'])).toEqual([2, expect.stringContaining('hookloop: workspace: ')])
    expect(await usage(['delete'])).toEqual([2, 'hookloop: workspace: unknown action "delete" (actions: create, list, add-member)'])
  })
})
