// `hookloop token` from the build on a data folder and on a team's PostgreSQL: the same token made,
// listed and revoked on either, the secret alone on stdout, in `default` or the workspace named;
// its usage errors (exit 2), an unknown id and an unknown workspace (exit 1).
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import BetterSqlite3 from 'better-sqlite3'
import { createWorkspaceStore, openStore, parseStoreLocation } from '../../../electron/engine/store'
import { runCli } from '../../support/run-cli'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
// No data key: tokens read no signing secret.
const noKey = { env: { ...process.env, HOOKLOOP_SECRET_KEY_FILE: '', HOOKLOOP_SECRET_KEY: '', HOOKLOOP_STORE: '' } }

describe('hookloop token', () => {
  it.each(['data folder', 'postgres'] as const)('makes, lists and revokes a token on a %s', async (kind) => {
    let where: string[]
    if (kind === 'postgres') where = ['--store', await postgres.freshDatabase()]
    else {
      new BetterSqlite3(join(temp.dir, 'hookloop.db')).close()
      where = ['--data', temp.dir]
    }
    const made = await runCli(['token', 'create', '--name', 'GitHub Actions', '--role', 'editor', ...where], noKey)
    expect(made.code, made.stderr).toBe(0)
    const secret = made.stdout.trim()
    expect(made.stdout).toMatch(/^hlk_[A-Za-z0-9_-]{43}\n$/)
    expect(made.stderr).not.toContain(secret)

    const json = await runCli(['token', 'create', '--name', 'nightly', '--role', 'viewer', '--json', ...where], noKey)
    const parsed = JSON.parse(json.stdout) as { token: { id: string; name: string; role: string; prefix: string }; secret: string }
    expect(parsed.token).toMatchObject({ name: 'nightly', role: 'viewer', workspaceId: 'default', prefix: parsed.secret.slice(0, 10) })

    // A token of another workspace, named; a workspace that does not exist is said so, exit 1.
    const store = await openStore(parseStoreLocation(where[1] ?? ''), { notice: () => undefined, withoutSecrets: true })
    await createWorkspaceStore(store.engine).insert({ id: 'ws_pay', name: 'Payments', createdAt: 1 })
    await store.engine.close()
    const other = JSON.parse((await runCli(['token', 'create', '--name', 'pay bot', '--role', 'viewer', '--workspace', 'Payments', '--json', ...where], noKey)).stdout) as { token: { id: string } }
    expect(other.token).toMatchObject({ workspaceId: 'ws_pay' })
    const nowhere = await runCli(['token', 'create', '--name', 'x', '--role', 'viewer', '--workspace', 'Nowhere', ...where], noKey)
    expect([nowhere.code, nowhere.stdout, nowhere.stderr]).toEqual([1, '', expect.stringContaining('no workspace named "Nowhere" in ')])
    await runCli(['token', 'revoke', other.token.id, ...where], noKey)

    const listed = JSON.parse((await runCli(['token', 'list', '--json', ...where], noKey)).stdout) as { tokens: { id: string; name: string; revokedAt: number | null }[] }
    expect(listed.tokens.map((t) => t.name).sort()).toEqual(['GitHub Actions', 'nightly', 'pay bot'])
    expect(JSON.stringify(listed)).not.toContain(secret.slice(10))

    const revoked = await runCli(['token', 'revoke', parsed.token.id, ...where], noKey)
    expect([revoked.code, revoked.stdout, revoked.stderr.trim()]).toEqual([0, '', `hookloop: revoked the token "nightly" (${parsed.token.id}): every server on this store refuses it within a second`])
    const table = (await runCli(['token', 'list', ...where], noKey)).stdout.split('\n')
    expect(table[0]).toMatch(/^ID +NAME +WORKSPACE +ROLE +TOKEN +CREATED +BY +LAST USED +REVOKED$/)
    expect(table.find((line) => line.includes('pay bot'))).toMatch(/pay bot +Payments +viewer/)
    expect(table.find((line) => line.includes('nightly'))).toMatch(/default +viewer +hlk_\S{6}… +\S+Z +\(command line\) +never +\d{4}-\d\d-\d\dT/)
    expect(table.find((line) => line.includes('GitHub Actions'))).toMatch(/never +-$/)

    const unknown = await runCli(['token', 'revoke', 'tok_0000000000000000', ...where], noKey)
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('no token tok_0000000000000000 in ')])
  })

  it('says what is wrong with its usage, exit 2', async () => {
    const usage = async (args: string[]) => {
      const r = await runCli(['token', ...args, '--data', temp.dir], noKey)
      return [r.code, r.stderr.trim()]
    }
    new BetterSqlite3(join(temp.dir, 'hookloop.db')).close()
    expect(await usage(['create', '--name', 'x'])).toEqual([2, 'hookloop: token: create needs --name NAME and --role ROLE (viewer, editor or admin)'])
    expect(await usage(['create', '--name', 'x', '--role', 'owner'])).toEqual([2, 'hookloop: token: --role must be one of viewer, editor, admin, got "owner"'])
    expect(await usage(['create', '--name', ' ', '--role', 'viewer'])).toEqual([2, 'hookloop: token: a token needs a name (what uses it: "GitHub Actions", "nightly replay")'])
    expect(await usage(['revoke'])).toEqual([2, 'hookloop: token: give exactly one ID (hookloop token --help)'])
    expect(await usage(['list', '--role', 'viewer'])).toEqual([2, 'hookloop: token: --name, --role and --workspace are for `token create`'])
    expect(await usage(['mint'])).toEqual([2, 'hookloop: token: unknown action "mint" (actions: create, list, revoke)'])
  })
})
