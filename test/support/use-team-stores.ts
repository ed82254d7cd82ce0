// Team stores for a test file: a real PostgreSQL (usePostgres), the team's data key in a folder of
// its own, and every store a test opens closed after it, with whatever else the test hands to
// `after` (closed in the reverse order).
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { openStore, parseStoreLocation, type OpenedStore } from '../../electron/engine/store'
import { usePostgres } from './use-postgres'
import { useTempDir } from './use-temp-dir'

export interface TeamStores {
  /** A new, empty database; its URL. */
  freshDatabase(): Promise<string>
  /** Opens (and migrates) the store at `url` with the team's data key; closed after the test. */
  open(url: string): Promise<OpenedStore>
  /** Runs `cleanup` after the test, before what was handed over earlier. */
  after(cleanup: () => Promise<void> | void): void
}

export function useTeamStores(): TeamStores {
  const postgres = usePostgres()
  const keys = useTempDir('hookloop-team-key-', 'all')
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return {
    freshDatabase: () => postgres.freshDatabase(),
    async open(url) {
      const store = await openStore(parseStoreLocation(url), { notice: () => undefined, postgresKey: { file: join(keys.dir, 'team.key') } })
      cleanups.push(() => store.engine.close())
      return store
    },
    after: (cleanup) => void cleanups.push(cleanup),
  }
}
