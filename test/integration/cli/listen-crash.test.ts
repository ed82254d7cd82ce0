// The crash check: `hookloop listen` killed with SIGKILL while many connections send to it keeps
// every request it answered 2xx, on a data folder and on a team's PostgreSQL. A request is
// answered only after its row is committed (docs/ARCHITECTURE.md, the capture writer), so a kill
// at any moment may leave requests stored and not answered (their senders retry them), never the
// other way round. The same check at full load, with its figures: `npm run bench:crash`.
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { judgeCrash, loadUntilKilled } from '../../support/crash-load'
import { startListen, type RunningListen } from '../../support/listen-cli'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir('hookloop-listen-crash-')
const keys = useTempDir('hookloop-crash-key-', 'all')

const running: RunningListen[] = []
afterEach(async () => {
  for (const listen of running.splice(0)) {
    listen.kill('SIGKILL')
    await listen.exited
  }
})

beforeAll(() => {
  // startListen spawns with this process's environment: a team store's data key goes there.
  process.env.HOOKLOOP_SECRET_KEY_FILE = join(keys.dir, 'team.key')
  delete process.env.HOOKLOOP_STORE
  delete process.env.HOOKLOOP_SECRET_KEY
})

describe.each([
  ['a data folder', () => Promise.resolve(join(temp.dir, 'folder'))],
  ['a team PostgreSQL', () => postgres.freshDatabase()],
] as const)('hookloop listen killed with SIGKILL under load, on %s', (_name, storeOf) => {
  it('has stored every request it answered 2xx, each once', async () => {
    const location = await storeOf()
    const listen = await startListen(location.startsWith('postgres://') ? ['--store', location] : ['--data', location])
    running.push(listen)

    const load = await loadUntilKilled({ port: listen.port, connections: 16, killWhen: (answered) => answered >= 400, kill: () => listen.kill('SIGKILL') })
    expect(await listen.exited).toBe(null) // ended by the signal, not by itself
    expect(load.failedBefore).toBe(0)
    expect(load.otherStatus).toBe(0)
    expect(load.answered.size).toBeGreaterThanOrEqual(400)

    const verdict = await judgeCrash(location, load)
    expect(verdict.lost).toEqual([])
    expect(verdict.storedTwice).toBe(0)
    expect(verdict.stored).toBe(verdict.answered + verdict.storedUnanswered)
  })
})
