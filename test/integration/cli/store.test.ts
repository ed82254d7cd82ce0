// `hookloop store copy` and `hookloop store status` as a user runs them (the built CLI), on a
// data folder made by `hookloop listen`-style captures and a real PostgreSQL.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { runCli } from '../../support/run-cli'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()

async function folderWithCaptures(dir: string, bodies: string[]): Promise<void> {
  const engine = await createEngine({ dataDir: dir, clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'inbox', secrets: ['s3cret-signing'], dedupe: 'pandoktorek-body', rules: [] })
    for (const body of bodies) await fetch(`${engine.receiver.url}/h/inbox`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
    await engine.quiesce()
  } finally {
    await engine.close()
  }
}

describe('hookloop store', () => {
  it('copies a data folder into PostgreSQL, says what it copied, copies nothing the second time, and lists the same requests back', async () => {
    const laptop = join(temp.dir, 'laptop')
    await folderWithCaptures(laptop, ['{"event_id":"one"}', '{"event_id":"one"}', '{"event_id":"two"}'])
    const team = await postgres.freshDatabase()
    const key = join(temp.dir, 'team.key')
    const first = await runCli(['store', 'copy', '--from', laptop, '--to', team, '--key-file', key])
    expect(first.stderr).not.toContain(new URL(team).password)
    expect(first.stdout).not.toContain(new URL(team).password)
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^ {2}requests +3 copied$/m)
    expect(first.stdout).toMatch(/^ {2}endpoints +1 copied$/m)
    expect(first.stdout).toMatch(new RegExp(`^Copied \\d+ rows from ${join(laptop, 'hookloop.db').replace(/[.]/g, '\\.')} to postgres://hookloop@127\\.0\\.0\\.1:\\d+/hookloop_[0-9a-f]+\\.$`, 'm'))

    const again = await runCli(['store', 'copy', '--from', laptop, '--to', team, '--key-file', key, '--json'])
    expect(again.code).toBe(0)
    const report = JSON.parse(again.stdout) as { copied: number; alreadyThere: number }
    expect(report.copied).toBe(0)
    expect(report.alreadyThere).toBeGreaterThanOrEqual(4)

    const status = await runCli(['store', 'status', '--json'], { env: { ...process.env, HOOKLOOP_STORE: team, HOOKLOOP_SECRET_KEY_FILE: key } })
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({ engine: 'postgres', rows: { requests: 3, endpoints: 1 } })

    // A team member lists the team store as the folder listed: no data key needed to list.
    const noKey = { env: { ...process.env, HOOKLOOP_SECRET_KEY_FILE: '', HOOKLOOP_SECRET_KEY: '' } }
    for (const filters of [[], ['--endpoint', 'inbox', '--event-id', 'ON'], ['--status', 'duplicate']]) {
      const fromFolder = await runCli(['requests', '--data', laptop, '--json', ...filters])
      const fromTeam = await runCli(['requests', '--store', team, '--json', ...filters], noKey)
      expect(fromTeam.stderr).toBe('')
      expect(fromTeam.code).toBe(0)
      expect(JSON.parse(fromTeam.stdout)).toEqual(JSON.parse(fromFolder.stdout))
    }
    expect(JSON.parse((await runCli(['requests', '--status', 'duplicate', '--json'], { env: { ...noKey.env, HOOKLOOP_STORE: team } })).stdout).requests).toHaveLength(1)
    const table = await runCli(['deliveries', '--store', team], noKey)
    expect(table).toMatchObject({ code: 0, stderr: 'hookloop: no deliveries match\n' })
    const unknown = await runCli(['requests', '--store', team, '--endpoint', 'nope'], noKey)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/no endpoint "nope" \(slug or id\) in postgres:\/\/hookloop@127\.0\.0\.1:\d+\/hookloop_/)
    const both = await runCli(['requests', '--store', team, '--data', laptop])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('give --store or --data, not both')

    const back = join(temp.dir, 'back')
    expect((await runCli(['store', 'copy', '--from', team, '--to', back, '--key-file', key])).code).toBe(0)
    const listed = async (dir: string) => (await runCli(['requests', '--data', dir, '--json'])).stdout
    expect(JSON.parse(await listed(back))).toEqual(JSON.parse(await listed(laptop)))
  })

  it('says what is wrong with a bad store, in one line, without a password', async () => {
    const missing = await runCli(['store', 'copy', '--from', join(temp.dir, 'nowhere'), '--to', postgres.urlOf('x')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/no Hookloop data at --from .*nowhere/)
    await folderWithCaptures(join(temp.dir, 'a'), [])
    const refused = await runCli(['store', 'copy', '--from', join(temp.dir, 'a'), '--to', 'postgres://u:topsecret@127.0.0.1:1/teamdb', '--key-file', join(temp.dir, 'k')])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim().split('\n')).toEqual(['hookloop store: cannot reach the PostgreSQL store at postgres://u@127.0.0.1:1/teamdb: nothing answers there (is the server running, and on that port?). Check the URL in --store or HOOKLOOP_STORE.'])
    const scheme = await runCli(['store', 'status', '--store', 'mysql://h/db'])
    expect(scheme.code).toBe(2)
    expect(scheme.stderr).toMatch(/mysql:\/\/ is not one Hookloop stores in/)
    const noAction = await runCli(['store', 'move'])
    expect(noAction.stderr).toMatch(/unknown action "move" \(actions: copy, status\)/)
  })
})
