// Hosts on one team's PostgreSQL, as `serve --store postgres://…` processes run them (each its own
// pool and LISTEN connection), and what their tests wait on.
import { afterEach } from 'vitest'
import { join } from 'node:path'
import { createToken } from '../../../../electron/engine/host/guard'
import { startHost, type Host } from '../../../../electron/engine/host/run-host'
import { makeTempDir } from '../../../support/temp-dir'

/**
 * Registers an afterEach that closes what the test opened, and returns the opener of a host on the
 * store at `url` with the team's data key (one key file for every host of the test file, as serve
 * reads it: HOOKLOOP_SECRET_KEY_FILE) and `cleanups`, closed in reverse after each test.
 */
export function useTeamHosts(): { hostOn(url: string): Promise<{ host: Host; token: string }>; cleanups: (() => Promise<void> | void)[] } {
  const cleanups: (() => Promise<void> | void)[] = []
  let keyDir: { dir: string; cleanup: () => void } | undefined
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return {
    cleanups,
    async hostOn(url) {
      if (!keyDir) {
        keyDir = makeTempDir()
        const made = keyDir
        cleanups.unshift(() => {
          made.cleanup()
          keyDir = undefined
        })
      }
      process.env.HOOKLOOP_SECRET_KEY_FILE = join(keyDir.dir, 'team.key')
      const token = createToken()
      const host = await startHost({ store: url, port: 0, token })
      cleanups.push(() => host.close())
      return { host, token }
    },
  }
}

/** Polls `probe` until it returns something (bounded by the test's timeout). */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, everyMs = 100): Promise<T> {
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
