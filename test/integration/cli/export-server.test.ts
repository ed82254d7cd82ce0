// `hookloop export --server URL` from the build against a real `hookloop serve --accounts`: the
// server selects and exports from its own store, and the file is the one `export --data` writes
// from the server's data folder, byte for byte (a case file's exported_at is the moment each was
// made), in every format, by ids, by filters and by --all, to stdout and with --out. Keeping the
// secrets needs an admin's token; a missing, wrong or viewer's token is refused in one line that
// never holds the token.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli'
import { cliEnv as env, startServedHookloop, type ServedHookloop } from '../../support/served-hookloop'

let served: ServedHookloop
let viewer = ''

beforeAll(async () => {
  served = await startServedHookloop()
  viewer = await served.token('viewer')
}, 180_000)

afterAll(() => served?.close())

/** A case file names the moment it was made; everything else is compared as written. */
const unstamped = (text: string) => text.replace(/"exported_at": "[^"]*"/, '"exported_at": "…"')

describe('hookloop export --server', () => {
  it('writes the file export --data writes from the same store, in every format and selection', async () => {
    const requests = JSON.parse((await runCli(['requests', '--data', served.dir, '--json'], env())).stdout) as { requests: { id: number }[] }
    const deliveries = JSON.parse((await runCli(['deliveries', '--data', served.dir, '--json'], env())).stdout) as { deliveries: { id: number }[] }
    const selections = [
      ['--format', 'har', '--all'],
      ['--format', 'curl', '--all'],
      ['--format', 'case', '--all'],
      ['--format', 'har', '--requests', requests.requests.map((r) => r.id).join(','), '--deliveries', String(deliveries.deliveries[0]!.id)],
      ['--format', 'curl', '--endpoint', served.slug, '--status', 'valid'],
      ['--format', 'case', '--status', 'succeeded', '--since', '1h'],
      ['--format', 'har', '--limit', '2'],
    ]
    for (const selection of selections) {
      const local = await runCli(['export', '--data', served.dir, ...selection], env())
      const remote = await runCli(['export', '--server', served.origin, ...selection], env({ HOOKLOOP_TOKEN: viewer }))
      expect(remote.code, `${selection.join(' ')}: ${remote.stderr}`).toBe(0)
      expect(local.code).toBe(0)
      expect(remote.stdout.length).toBeGreaterThan(100)
      expect(unstamped(remote.stdout), selection.join(' ')).toBe(unstamped(local.stdout))
    }
    // Signed traffic was exported, and its secrets and signatures redacted.
    expect((await runCli(['export', '--server', served.origin, '--format', 'har', '--all'], env({ HOOKLOOP_TOKEN: viewer }))).stdout).toContain('[redacted]')

    // --out says the same of the same file (a path apart); the token from $HOOKLOOP_SERVER's pair.
    const fromFolder = join(served.dir, 'folder.har')
    const fromServer = join(served.dir, 'server.har')
    const local = await runCli(['export', '--data', served.dir, '--format', 'har', '--all', '--out', fromFolder], env())
    const remote = await runCli(['export', '--format', 'har', '--all', '--out', fromServer], env({ HOOKLOOP_SERVER: served.origin, HOOKLOOP_TOKEN: viewer }))
    expect([remote.code, remote.stderr]).toEqual([0, ''])
    expect(remote.stdout.replace(fromServer, 'F')).toBe(local.stdout.replace(fromFolder, 'F'))
    expect(readFileSync(fromServer, 'utf8')).toBe(readFileSync(fromFolder, 'utf8'))
  }, 300_000)

  it('keeps the secrets for an admin only, as the folder does', async () => {
    const keep = ['--format', 'case', '--all', '--keep-secrets']
    const refused = await runCli(['export', '--server', served.origin, ...keep], env({ HOOKLOOP_TOKEN: viewer }))
    expect([refused.code, refused.stdout]).toEqual([1, ''])
    expect(refused.stderr).toMatch(/^hookloop: export: export\.selection with keepSecrets needs the admin role; the token "viewer bot \d+" is a viewer\n$/)
    const editor = await runCli(['export', '--server', served.origin, ...keep], env({ HOOKLOOP_TOKEN: await served.token('editor') }))
    expect(editor.stderr).toMatch(/needs the admin role; the token "editor bot \d+" is an editor\n$/)
    const admin = await runCli(['export', '--server', served.origin, ...keep], env({ HOOKLOOP_TOKEN: await served.token('admin') }))
    const local = await runCli(['export', '--data', served.dir, ...keep], env())
    expect(admin.code, admin.stderr).toBe(0)
    expect(unstamped(admin.stdout)).toBe(unstamped(local.stdout))
    expect(JSON.parse(admin.stdout).redacted).toBe(false)
  }, 300_000)

  it('says in one line what refused it, and never prints the token', async () => {
    const wrongToken = `hlk_${'x'.repeat(43)}`
    const wrong = await runCli(['export', '--server', served.origin, '--format', 'har', '--all'], env({ HOOKLOOP_TOKEN: wrongToken }))
    expect([wrong.code, wrong.stdout, wrong.stderr]).toEqual([1, '', `hookloop: export: ${served.origin} refused the API token (401): check $HOOKLOOP_TOKEN; a revoked token is refused\n`])
    const missing = await runCli(['export', '--server', served.origin, '--format', 'har', '--all'], env())
    expect([missing.code, missing.stdout]).toEqual([2, ''])
    expect(missing.stderr.trim().split('\n')).toEqual([`hookloop: export: --server ${served.origin} needs an API token: $HOOKLOOP_TOKEN (or --token); an admin makes one with \`hookloop token create\` or in the app's Tokens panel`])
    const unknown = await runCli(['export', '--server', served.origin, '--format', 'har', '--requests', '999999'], env({ HOOKLOOP_TOKEN: viewer }))
    expect([unknown.code, unknown.stderr]).toEqual([2, `hookloop: export: no captured request with id 999999 on ${served.origin}\n`])
    for (const run of [wrong, missing, unknown]) {
      expect(run.stderr).not.toContain(viewer)
      expect(run.stderr).not.toContain(wrongToken)
    }
  }, 300_000)
})
