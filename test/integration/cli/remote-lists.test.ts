// `hookloop requests` and `hookloop deliveries --server URL` from the build against a real
// `hookloop serve --accounts`, with a viewer's API token from $HOOKLOOP_TOKEN: the same bytes on
// stdout as the same command on the server's data folder, as a table and as JSON, with filters;
// a refused token, an endpoint the server does not have and a missing token said in one line.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const CLI = resolve('out/main/cli.js')
const cleanups: (() => void)[] = []
let dir = ''
let origin = ''
let viewer = ''
let slug = ''
const env = (extra: Record<string, string> = {}) => ({ env: { ...process.env, HOOKLOOP_STORE: '', HOOKLOOP_SERVER: '', HOOKLOOP_TOKEN: '', ...extra } })

async function token(role: string): Promise<string> {
  const made = await runCli(['token', 'create', '--name', `${role} bot`, '--role', role, '--data', dir], env())
  expect(made.code, made.stderr).toBe(0)
  return made.stdout.trim()
}

beforeAll(async () => {
  const temp = makeTempDir()
  cleanups.push(temp.cleanup)
  dir = temp.dir
  const child = spawn(process.execPath, [CLI, 'serve', '--accounts', '--data', dir, '--admin', 'ada@example.com'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: 'correct horse battery' },
  })
  cleanups.push(() => child.kill('SIGKILL'))
  origin = new URL(await new Promise<string>((done) => createInterface({ input: child.stdout! }).on('line', (line) => /^http/.test(line) && done(line)))).origin
  viewer = await token('viewer')

  // An editor's token runs Try the loop: an endpoint, a subscription, an event and its retries.
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/control`, { headers: { authorization: `Bearer ${await token('editor')}` } })
  await new Promise((done) => ws.once('message', done))
  const tried = await new Promise<{ endpointId: string }>((done) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { t: string; id?: number; res?: { endpointId: string } }
      if (frame.t === 'res' && frame.id === 1 && frame.res) done(frame.res)
    })
    ws.send(JSON.stringify({ t: 'cmd', id: 1, name: 'loop.try', req: {} }))
  })
  ws.close()
  // Settled: the delivery succeeded after its retries, each attempt captured.
  for (;;) {
    const deliveries = JSON.parse((await runCli(['deliveries', '--data', dir, '--json'], env())).stdout) as { deliveries: { status: string }[] }
    const requests = JSON.parse((await runCli(['requests', '--data', dir, '--json'], env())).stdout) as { requests: { endpointId: string; endpointSlug: string; responseStatus: number | null }[] }
    if (deliveries.deliveries.length > 0 && deliveries.deliveries.every((d) => d.status === 'succeeded') && requests.requests.length >= 4 && requests.requests.every((r) => r.responseStatus !== null)) {
      slug = requests.requests.find((r) => r.endpointId === tried.endpointId)?.endpointSlug ?? ''
      break
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}, 60_000)

afterAll(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

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
  })

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
  })
})
