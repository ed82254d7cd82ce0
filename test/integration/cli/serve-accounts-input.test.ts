// Bad input at the account forms of `hookloop serve --accounts` from the build, on a data folder and
// a team's PostgreSQL (which refuses a NUL in text): an email carrying NUL or another control
// character is refused with 400 naming the field, at sign-in, at joining through an invite and for
// the first admin, and nothing is made; the server goes on answering.
import { afterEach, describe, expect, it } from 'vitest'
import { command, cookieOf, servedStores, sessionSocket, signIn, startAccountsServe, trySignIn, tryJoin } from '../../support/accounts-serve'
import { usePostgres } from '../../support/use-postgres'
import { runCli } from '../../support/run-cli'

const PASSWORD = 'correct horse battery'
const postgres = usePostgres()
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

const STORES = servedStores(postgres, cleanups)

const BAD_EMAILS = ['ada\u0000@example.com', 'vic@exa\u0001mple.com', 'vic@example.com\u0000', '\u007fvic@example.com']

describe.each(Object.entries(STORES))('bad input at the account forms of hookloop serve --accounts on %s', (_store, openedBy) => {
  it('refuses an email with a control character with 400 naming the field, at sign-in, joining and the first admin', async () => {
    const store = await openedBy()
    // The first admin from the command line: refused in one line, exit 2 or 1, nothing served.
    const first = await runCli(['serve', '--accounts', ...store.args, '--admin', 'ada\u0001@example.com'], { env: { ...process.env, ...store.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD } })
    expect(first.code).not.toBe(0)
    expect(first.stderr).toContain('the email has a control character')

    const served = await startAccountsServe([...store.args, '--admin', 'ada@example.com'], { ...store.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD })
    cleanups.push(served.stop)
    const { origin } = served
    for (const email of BAD_EMAILS) {
      const refused = await trySignIn(origin, email, PASSWORD)
      const page = await refused.text()
      expect([refused.status, cookieOf(refused, 'hookloop_session')], JSON.stringify(email)).toEqual([400, ''])
      expect(page).toContain('The email has a control character')
    }

    const admin = await sessionSocket(origin, await signIn(origin, 'ada@example.com', PASSWORD))
    cleanups.push(() => admin.terminate())
    const invite = await command(admin, 'member.invite', { role: 'viewer' })
    for (const email of BAD_EMAILS) {
      const joined = await tryJoin(invite.res.link as string, { email, password: PASSWORD })
      expect([joined.status, cookieOf(joined, 'hookloop_session')], JSON.stringify(email)).toEqual([400, ''])
      expect(await joined.text()).toContain('The email has a control character')
    }
    const badName = await tryJoin(invite.res.link as string, { email: 'vic@example.com', name: 'Vic\u0000', password: PASSWORD })
    expect([badName.status, await badName.text()]).toEqual([400, expect.stringContaining('The name has a control character')])

    // Nothing was made, and the link was not spent by the refusals: the right details join with it.
    expect((await command(admin, 'member.list')).res.members.map((m: { email: string }) => m.email)).toEqual(['ada@example.com'])
    expect((await tryJoin(invite.res.link as string, { email: 'vic@example.com', password: PASSWORD })).status).toBe(303)
    expect(await signIn(origin, 'vic@example.com', PASSWORD)).not.toBe('')
    expect(served.output()).not.toMatch(/failed|500/)
  })
})
