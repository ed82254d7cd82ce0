// `hookloop serve --store`: a data folder or a team's postgres:// URL. A server that does not
// answer is one line on stderr naming its host and database (never the password) and exit 1;
// --store beside --data is a usage error. A password in --store (argv, which `ps` shows) is
// warned about in one line pointing to HOOKLOOP_STORE; the same URL by HOOKLOOP_STORE is not.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir } from '../../support/temp-dir'
import { freePort } from '../../support/loopback'

const CLI = resolve('out/main/cli.js')

const PASSWORD_WARNING = 'hookloop: --store carries a password on the command line, where `ps` shows it to anyone on this machine; give the URL in $HOOKLOOP_STORE instead'

/** serve on a store URL nothing answers at, given by --store or by HOOKLOOP_STORE; its stderr. */
async function serveStderr(url: (port: number) => string, by: 'argv' | 'env'): Promise<string> {
  const port = await freePort()
  const { dir, cleanup } = makeTempDir()
  try {
    const run = spawnSync(process.execPath, [CLI, 'serve', '--port', '0', ...(by === 'argv' ? ['--store', url(port)] : [])], {
      encoding: 'utf8',
      env: { ...process.env, HOOKLOOP_SECRET_KEY_FILE: resolve(dir, 'team.key'), HOOKLOOP_STORE: by === 'env' ? url(port) : '' },
      timeout: 60_000,
    })
    expect(run.status).toBe(1)
    return run.stderr
  } finally {
    cleanup()
  }
}

describe('hookloop serve --store', () => {
  it('warns once about a password on the command line, never printing it, and not about one in HOOKLOOP_STORE or a URL without one', async () => {
    const asParameter = await serveStderr((port) => `postgres://team@127.0.0.1:${port}/hookloop_team?password=s3cret-pw`, 'argv')
    expect(asParameter.split('\n').filter((line) => line === PASSWORD_WARNING)).toHaveLength(1)
    expect(asParameter).not.toContain('s3cret-pw')
    const byEnvironment = await serveStderr((port) => `postgres://team:s3cret-pw@127.0.0.1:${port}/hookloop_team`, 'env')
    expect(byEnvironment).not.toContain('--store carries a password')
    expect(byEnvironment).not.toContain('s3cret-pw')
    const without = await serveStderr((port) => `postgres://team@127.0.0.1:${port}/hookloop_team`, 'argv')
    expect(without).not.toContain('--store carries a password')
  })

  it('exits 1 with one line naming the host and database, never the password, when the PostgreSQL server does not answer', async () => {
    const port = await freePort()
    const { dir, cleanup } = makeTempDir()
    try {
      const run = spawnSync(process.execPath, [CLI, 'serve', '--port', '0', '--store', `postgres://team:s3cret-pw@127.0.0.1:${port}/hookloop_team`], {
        encoding: 'utf8',
        env: { ...process.env, HOOKLOOP_SECRET_KEY_FILE: resolve(dir, 'team.key'), HOOKLOOP_STORE: '' },
        timeout: 60_000,
      })
      expect(run.status).toBe(1)
      expect(run.stdout).toBe('')
      const lines = run.stderr.trim().split('\n')
      expect(lines).toHaveLength(2)
      expect(lines[0]).toBe(PASSWORD_WARNING)
      expect(lines[1]).toContain(`postgres://team@127.0.0.1:${port}/hookloop_team`)
      expect(lines[1]).toContain('nothing answers there')
      expect(run.stderr).not.toContain('s3cret-pw')
    } finally {
      cleanup()
    }
  })

  it('refuses --store with --data as a usage error', () => {
    const run = spawnSync(process.execPath, [CLI, 'serve', '--store', 'postgres://team@127.0.0.1:1/db', '--data', '/tmp/nowhere'], { encoding: 'utf8' })
    expect(run.status).toBe(2)
    expect(run.stderr.trim().split('\n')).toEqual(['hookloop: serve: give --store or --data, not both (--store takes a data folder too)'])
  })
})
