// One real PostgreSQL server for a test file (test/support/postgres.ts), started before its tests
// and stopped after them.
import { afterAll, beforeAll } from 'vitest'
import { startTestPostgres, type TestPostgres } from './postgres'

export function usePostgres(): TestPostgres {
  let server: TestPostgres | undefined
  beforeAll(async () => {
    server = await startTestPostgres()
  }, 120_000)
  afterAll(async () => server?.stop())
  const started = (): TestPostgres => {
    if (!server) throw new Error('the PostgreSQL server is started in a beforeAll hook')
    return server
  }
  return {
    freshDatabase: () => started().freshDatabase(),
    urlOf: (db) => started().urlOf(db),
    stop: () => started().stop(),
    terminateConnections: (database) => started().terminateConnections(database),
    get outage() {
      return started().outage
    },
  }
}
