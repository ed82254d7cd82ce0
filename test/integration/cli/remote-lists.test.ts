// `hookloop requests` and `hookloop deliveries --server URL` from the build against a real
// `hookloop serve --accounts`, with a viewer's API token from $HOOKLOOP_TOKEN: the same bytes on
// stdout as the same command on the server's data folder, as a table and as JSON, with filters;
// a refused token, an endpoint the server does not have and a missing token said in one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli'
import { cliEnv as env, startServedHookloop, type ServedHookloop } from '../../support/served-hookloop'

let served: ServedHookloop
let dir = ''
let origin = ''
let viewer = ''
let slug = ''

beforeAll(async () => {
  served = await startServedHookloop()
  ;({ dir, origin, slug } = served)
  viewer = await served.token('viewer')
}, 180_000)

afterAll(() => served?.close())

describe('hookloop requests and deliveries --server', () => {
  it('print the same as on the server’s data folder, as a table and as JSON, with filters', async () => {
    const cases: [string, string[]][] = [
      ['requests', []],
      ['requests', ['--json']],
      ['requests', ['--limit', '2']],
      ['requests', ['--status', 'valid,duplicate', '--json']],
      ['requests', ['--endpoint', slug, '--since', '1h']],
      ['deliveries', []],
      ['deliveries', ['--json']],
      ['deliveries', ['--status', 'succeeded', '--endpoint', slug]],
    ]
    for (const [command, args] of cases) {
      const local = await runCli([command, '--data', dir, ...args], env())
      const remote = await runCli([command, '--server', origin, ...args], env({ HOOKLOOP_TOKEN: viewer }))
      expect(remote.code, `${command} ${args.join(' ')}: ${remote.stderr}`).toBe(0)
      expect(remote.stdout, `${command} ${args.join(' ')}`).toBe(local.stdout)
      expect(remote.stdout.length).toBeGreaterThan(0)
    }
    // From the environment alone, as a CI job sets it.
    const fromEnv = await runCli(['deliveries'], env({ HOOKLOOP_SERVER: origin, HOOKLOOP_TOKEN: viewer }))
    expect(fromEnv.stdout).toBe((await runCli(['deliveries', '--data', dir], env())).stdout)
    // None match: said on stderr, as on a folder.
    const none = await runCli(['requests', '--server', origin, '--event-id', 'nothing-like-this'], env({ HOOKLOOP_TOKEN: viewer }))
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', 'hookloop: no captured requests match\n'])
  }, 300_000)

  it('say in one line what refused them, and never print the token', async () => {
    const wrong = await runCli(['requests', '--server', origin], env({ HOOKLOOP_TOKEN: `hlk_${'x'.repeat(43)}` }))
    expect([wrong.code, wrong.stdout, wrong.stderr]).toEqual([1, '', `hookloop: requests: ${origin} refused the API token (401): check $HOOKLOOP_TOKEN; a revoked token is refused\n`])
    const unknown = await runCli(['deliveries', '--server', origin, '--endpoint', 'nope'], env({ HOOKLOOP_TOKEN: viewer }))
    expect([unknown.code, unknown.stderr]).toEqual([2, `hookloop: deliveries: no endpoint "nope" (slug or id) on ${origin}\n`])
    const missing = await runCli(['requests', '--server', origin], env())
    expect([missing.code, missing.stderr.trim()]).toEqual([2, `hookloop: requests: --server ${origin} needs an API token: $HOOKLOOP_TOKEN (or --token); an admin makes one with \`hookloop token create\` or in the app's Tokens panel`])
    const both = await runCli(['requests', '--server', origin, '--data', dir], env({ HOOKLOOP_TOKEN: viewer }))
    expect([both.code, both.stderr.trim()]).toEqual([2, 'hookloop: requests: give --server or --data, not both'])
    // --data given wins over $HOOKLOOP_SERVER.
    expect((await runCli(['requests', '--data', dir], env({ HOOKLOOP_SERVER: 'http://127.0.0.1:1' }))).code).toBe(0)
    for (const run of [wrong, unknown, missing]) expect(run.stderr).not.toContain(viewer)
  }, 300_000)
})
