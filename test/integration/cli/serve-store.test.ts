// `hookloop serve --store`: a data folder or a team's postgres:// URL. A server that does not
// answer is one line on stderr naming its host and database (never the password) and exit 1;
// --store beside --data is a usage error.
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir } from '../../support/temp-dir'

const CLI = resolve('out/main/cli.js')

/** A loopback port nothing listens on: taken, then let go. */
function closedPort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => done(port))
    })
  })
}

describe('hookloop serve --store', () => {
  it('exits 1 with one line naming the host and database, never the password, when the PostgreSQL server does not answer', async () => {
    const port = await closedPort()
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
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(`postgres://team@127.0.0.1:${port}/hookloop_team`)
      expect(lines[0]).toContain('nothing answers there')
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
