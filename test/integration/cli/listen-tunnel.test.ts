import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CLI_PATH, REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'
import { createTunnelServer } from '../../support/tunnel-server'
import { useCleanups } from '../tunnel/support/server'
import { sendToPublicUrl } from '../tunnel/support/tunnel'

const cleanup = useCleanups()

/** The running CLI's stdout so far, and a bounded wait for a line matching a pattern. */
function watch(child: ChildProcess) {
  let out = ''
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')))
  child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')))
  return {
    get out() {
      return out
    },
    async waitFor(pattern: RegExp, what: string, from = 0, timeoutMs = 15_000): Promise<RegExpMatchArray> {
      const end = Date.now() + timeoutMs
      for (;;) {
        const match = out.slice(from).match(pattern)
        if (match) return match
        if (Date.now() > end || child.exitCode !== null) throw new Error(`hookloop listen never printed ${what}; output:\n${out}`)
        await new Promise((r) => setTimeout(r, 25))
      }
    },
  }
}

describe.skipIf(!existsSync(CLI_PATH))('hookloop listen --tunnel', () => {
  it('prints the public endpoint URLs when online, delivers through them, and prints each state change', async () => {
    const server = await createTunnelServer({ maxSockets: 2 })
    cleanup(() => server.stop())
    const data = makeTempDir('hookloop-listen-tunnel-')
    cleanup(() => data.cleanup())
    const child = spawn(process.execPath, [CLI_PATH, 'listen', '--port', '0', '--data', data.dir, '--tunnel', '--tunnel-host', server.url, '--subdomain', 'clitest'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    cleanup(() => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
    const log = watch(child)
    await log.waitFor(/tunnel connecting to http:\/\/127\.0\.0\.1:\d+/, 'the connecting state')
    await log.waitFor(/tunnel online at (http:\/\/clitest\.localhost:\d+)/, 'the online state')
    const [, publicEndpoint] = await log.waitFor(/Public endpoints:\n {2}(http:\/\/clitest\.localhost:\d+\/h\/default)\n/, 'the public endpoint list')
    const url = new URL(publicEndpoint ?? '')

    const answer = await sendToPublicUrl(url.origin, url.pathname, { body: '{"event_id":"x"}', headers: { 'content-type': 'application/json' } })
    expect(answer.status).toBe(200)
    await log.waitFor(/default {2}POST \/h\/default .*status=200/, 'the request log line')

    const mark = log.out.length
    await server.stop()
    await log.waitFor(/tunnel reconnecting \(attempt 1\) in /, 'the reconnecting state', mark)
    await server.start()
    await log.waitFor(/tunnel online at http:\/\/clitest\.localhost:\d+/, 'online again', mark, 20_000)

    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(log.out).toContain('tunnel stopped')
    expect(log.out).toMatch(/Stopped\. 1 request in /)
  })

  it('rejects tunnel flags without --tunnel and a bad subdomain, with exit 2', async () => {
    const a = await runCli(['listen', '--subdomain', 'abcd'])
    expect([a.code, a.stderr]).toEqual([2, 'hookloop: --subdomain needs --tunnel\n'])
    const b = await runCli(['listen', '--tunnel', '--subdomain', 'Bad_Name'])
    expect(b.code).toBe(2)
    expect(b.stderr).toBe('hookloop: --tunnel: subdomain "Bad_Name" is invalid: use 4 to 63 lowercase letters, digits or inner hyphens\n')
    const c = await runCli(['listen', '--tunnel', '--tunnel-host', 'nope'])
    expect([c.code, c.stderr]).toEqual([2, 'hookloop: --tunnel: tunnel host must be a URL like https://localtunnel.me, got "nope"\n'])
  })
})
