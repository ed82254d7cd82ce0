// A data folder the desktop app sealed with the OS keychain (its data key in hookloop.db.key.sealed,
// which only Electron's safeStorage opens; no key file beside it), used by the same person's
// commands: those that read a secret say what sealed it and how to open it, in one line, and make
// no key file of their own (a second key would seal new secrets the app could not read); those
// that read no secret work on it as it is. Real processes from the build, a real folder.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

describe('a folder the app sealed with the OS keychain', () => {
  it('commands that need a secret name what sealed it and how to open it; the lists still work', async () => {
    const temp = makeTempDir('hookloop-app-sealed-')
    try {
      const engine = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
      await engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] })
      await fetch(engine.receiver.endpointUrl('shop'), { method: 'POST', body: '{}' })
      await engine.quiesce()
      await engine.close()
      // What the app does on its first start (electron/main/data-key.ts): the key sealed by the
      // keychain beside the database, the plain key file removed.
      const keyFile = join(temp.dir, 'hookloop.db.key')
      writeFileSync(join(temp.dir, 'hookloop.db.key.sealed'), Buffer.from(`v11${readFileSync(keyFile, 'utf8')}`).toString('base64') + '\n', { mode: 0o600 })
      rmSync(keyFile)

      for (const args of [['export', '--all', '--format', 'curl'], ['doctor'], ['mcp']]) {
        const run = await runCli([...args, '--data', temp.dir])
        expect(run.code, args.join(' ')).toBe(1)
        expect(run.stdout).toBe('')
        expect(run.stderr).toContain('are sealed by the Hookloop app')
        expect(run.stderr).toContain('hookloop.db.key.sealed')
        expect(run.stderr).toContain('HOOKLOOP_SHARE_DATA_KEY=1')
        expect(run.stderr).not.toMatch(/\n\s+at /)
        expect(existsSync(keyFile)).toBe(false)
      }
      const listed = await runCli(['requests', '--data', temp.dir, '--json'])
      expect(listed.code).toBe(0)
      expect((JSON.parse(listed.stdout) as { requests: unknown[] }).requests).toHaveLength(1)
    } finally {
      temp.cleanup()
    }
  })
})
