// `hookloop audit` from the build, on a data folder and on a team's PostgreSQL: a table newest
// first, the same entries as one JSON document, filtered by actor (any case), command and
// --since; nothing matching is said on stderr and is not an error; a bad --since is a usage error.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAuditStore, openStore, parseStoreLocation, type NewAuditEntry } from '../../../electron/engine/store'
import { runCli } from '../../support/run-cli'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
const quiet = { notice: () => undefined }
const noKey = { env: { ...process.env, HOOKLOOP_SECRET_KEY_FILE: '', HOOKLOOP_SECRET_KEY: '', HOOKLOOP_STORE: '' } }
const HOUR = 3_600_000

async function filled(location: string): Promise<void> {
  const store = await openStore(parseStoreLocation(location), { ...quiet, withoutSecrets: true })
  const audit = createAuditStore(store.engine)
  const now = Date.now()
  const ada = { actorId: 'acc-1', actor: 'ada@example.com', via: 'session' as const }
  const entries: NewAuditEntry[] = [
    { at: now - 3 * HOUR, ...ada, command: 'endpoint.create', target: { kind: 'endpoint', id: 'ep-1' }, summary: 'endpoint.create · endpoint ep-1 · "Shop"', detail: { name: 'Shop', secrets: ['whsec_cli_secret_value'] } },
    { at: now - 2 * HOUR, actorId: null, actor: 'local', via: 'cli', command: 'request.resend', target: { kind: 'request', id: '7' }, summary: 'request.resend · request 7', detail: { requestId: 7 } },
    { at: now - HOUR / 2, ...ada, command: 'rule.update', target: { kind: 'rule', id: 'r-1' }, summary: 'rule.update · rule r-1 · from revision 2', detail: { id: 'r-1', revision: 2 } },
  ]
  for (const entry of entries) await audit.record(entry)
  await store.engine.close()
}

describe('hookloop audit', () => {
  it('lists a data folder’s changes as a table and as JSON, filtered', async () => {
    const folder = join(temp.dir, 'folder')
    await filled(folder)
    const table = await runCli(['audit', '--data', folder], noKey)
    expect(table.code).toBe(0)
    const lines = table.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^AT\s+ACTOR\s+VIA\s+COMMAND\s+TARGET\s+SUMMARY$/)
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/).slice(1, 5))).toEqual([
      ['ada@example.com', 'session', 'rule.update', 'rule r-1'],
      ['local', 'cli', 'request.resend', 'request 7'],
      ['ada@example.com', 'session', 'endpoint.create', 'endpoint ep-1'],
    ])
    expect(table.stdout).not.toContain('whsec_cli_secret_value')

    const json = JSON.parse((await runCli(['audit', '--data', folder, '--json', '--actor', 'ADA@example.com'], noKey)).stdout) as { audit: { command: string; detail: unknown }[]; total: number }
    expect(json.total).toBe(2)
    expect(json.audit.map((e) => e.command)).toEqual(['rule.update', 'endpoint.create'])
    expect(json.audit[1]?.detail).toEqual({ name: 'Shop', secrets: '[redacted]' })

    const recent = JSON.parse((await runCli(['audit', '--data', folder, '--json', '--since', '1h'], noKey)).stdout) as { audit: { command: string }[] }
    expect(recent.audit.map((e) => e.command)).toEqual(['rule.update'])
    const limited = JSON.parse((await runCli(['audit', '--data', folder, '--json', '--limit', '1', '--command', 'request.resend'], noKey)).stdout) as { audit: { actor: string }[] }
    expect(limited.audit.map((e) => e.actor)).toEqual(['local'])

    const none = await runCli(['audit', '--data', folder, '--actor', 'nobody@example.com'], noKey)
    expect([none.code, none.stdout, none.stderr.trim()]).toEqual([0, '', 'hookloop: no changes match'])
    const bad = await runCli(['audit', '--data', folder, '--since', 'yesterday'], noKey)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('audit: --since takes a duration')
  })

  it('reads a team store with --store, no data key needed', async () => {
    const team = await postgres.freshDatabase()
    await filled(team)
    const json = JSON.parse((await runCli(['audit', '--store', team, '--json'], noKey)).stdout) as { audit: { command: string }[]; total: number }
    expect([json.total, json.audit.map((e) => e.command)]).toEqual([3, ['rule.update', 'request.resend', 'endpoint.create']])
  })
})
