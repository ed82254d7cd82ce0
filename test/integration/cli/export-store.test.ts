// `hookloop export --store` as a user runs it (the built CLI) on a team's PostgreSQL: the same
// files as `--data` gives from the data folder the team store was copied from, by --all, by
// filters and by ids, redacted or with secrets kept; and a bad store named in one line.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyStore, openStore, parseStoreLocation } from '../../../electron/engine/store'
import { runCli } from '../../support/run-cli'
import { usePostgres } from '../../support/use-postgres'
import { createFixture, SECRET, type Fixture } from '../exports/support'

const postgres = usePostgres()
let fixture: Fixture
let team: string
let keyFile: string
/** The environment of a team member: the team's data key, no store named by default. */
let withKey: NodeJS.ProcessEnv

beforeAll(async () => {
  fixture = await createFixture()
  team = await postgres.freshDatabase()
  keyFile = join(fixture.dir, 'team.key')
  const quiet = { notice: () => undefined }
  const from = await openStore(parseStoreLocation(fixture.dir), quiet)
  const to = await openStore(parseStoreLocation(team), { ...quiet, postgresKey: { file: keyFile } })
  try {
    await copyStore(from, to)
  } finally {
    await from.engine.close()
    await to.engine.close()
  }
  withKey = { ...process.env, HOOKLOOP_STORE: '', HOOKLOOP_SECRET_KEY: '', HOOKLOOP_SECRET_KEY_FILE: keyFile }
}, 120_000)
afterAll(async () => {
  await fixture?.close()
})

describe('hookloop export --store', () => {
  it('writes from a team store the HAR the data folder gives (--all), and says the same', async () => {
    const fromFolder = join(fixture.dir, 'out', 'folder.har')
    const fromTeam = join(fixture.dir, 'out', 'team.har')
    const folderRun = await runCli(['export', '--data', fixture.dir, '--format', 'har', '--all', '--out', fromFolder], { env: withKey })
    const teamRun = await runCli(['export', '--store', team, '--format', 'har', '--all', '--out', fromTeam], { env: withKey })
    expect(teamRun.stderr).toBe('')
    expect(teamRun.code).toBe(0)
    expect(folderRun.code).toBe(0)
    expect(teamRun.stdout.replace(fromTeam, 'F')).toBe(folderRun.stdout.replace(fromFolder, 'F'))
    expect(teamRun.stdout).toMatch(/\(HAR 1\.2\): 4 requests, 1 delivery, .*, secrets redacted\n$/)
    const har = readFileSync(fromTeam, 'utf8')
    expect(har).toBe(readFileSync(fromFolder, 'utf8'))
    expect(JSON.parse(har).log.entries.length).toBeGreaterThanOrEqual(4)
  })

  it('selects by filters and ids as from the folder, takes HOOKLOOP_STORE and the key itself, and keeps secrets when asked', async () => {
    const key = readFileSync(keyFile, 'utf8').trim()
    const selections = [
      ['--format', 'curl', '--endpoint', 'shop', '--status', 'valid'],
      ['--format', 'har', '--requests', fixture.requestIds.join(','), '--deliveries', String(fixture.deliveryIds[0])],
      ['--format', 'case', '--requests', String(fixture.requestIds[1]), '--keep-secrets'],
    ]
    for (const selection of selections) {
      const fromFolder = await runCli(['export', '--data', fixture.dir, ...selection], { env: withKey })
      const fromTeam = await runCli(['export', ...selection], { env: { ...withKey, HOOKLOOP_STORE: team, HOOKLOOP_SECRET_KEY_FILE: '', HOOKLOOP_SECRET_KEY: key } })
      expect(fromTeam.code, fromTeam.stderr).toBe(0)
      expect(fromFolder.code).toBe(0)
      // A case file is stamped with the time it was made: that line alone differs.
      const unstamped = (text: string) => text.replace(/"exported_at": "[^"]*"/, '"exported_at": "…"')
      expect(unstamped(fromTeam.stdout)).toBe(unstamped(fromFolder.stdout))
      expect(fromTeam.stdout.includes(SECRET)).toBe(selection.includes('--keep-secrets'))
    }
  })

  it('refuses --store with --data (exit 2), asks for the data key, and names an unreachable server in one line without its password (exit 1)', async () => {
    const both = await runCli(['export', '--store', team, '--data', fixture.dir, '--format', 'har', '--all'], { env: withKey })
    expect(both.code).toBe(2)
    expect(both.stderr).toBe('hookloop: export: give --store or --data, not both (--store takes a data folder too)\n')

    const noKey = await runCli(['export', '--store', team, '--format', 'har', '--all'], { env: { ...withKey, HOOKLOOP_SECRET_KEY_FILE: '' } })
    expect(noKey.code).toBe(1)
    expect(noKey.stderr).toMatch(/^hookloop: a PostgreSQL store needs the data key that seals its signing secrets.*HOOKLOOP_SECRET_KEY_FILE.*\n$/)
    expect(noKey.stdout).toBe('')

    const anyKey = { ...withKey, HOOKLOOP_SECRET_KEY_FILE: '', HOOKLOOP_SECRET_KEY: randomBytes(32).toString('base64') }
    const unreachable = await runCli(['export', '--store', 'postgres://u:topsecret@127.0.0.1:1/teamdb', '--format', 'har', '--all'], { env: anyKey })
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr.split('\n')).toEqual([
      'hookloop: cannot reach the PostgreSQL store at postgres://u@127.0.0.1:1/teamdb: nothing answers there (is the server running, and on that port?). Check the URL in --store or HOOKLOOP_STORE.',
      '',
    ])

    const wrongKey = await runCli(['export', '--store', team, '--format', 'har', '--all'], { env: anyKey })
    expect(wrongKey.code).toBe(1)
    expect(wrongKey.stderr).toMatch(/^hookloop: the signing secrets in the PostgreSQL store at postgres:\/\/\S+ were sealed with another data key/)
    expect(wrongKey.stderr).not.toContain(new URL(team).password)

    const missing = await runCli(['export', '--store', team, '--format', 'har', '--requests', '999999'], { env: withKey })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe('hookloop: export: no captured request with id 999999\n')
  })
})
