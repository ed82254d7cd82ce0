// Bare SqlEngines for a test file, no schema: a real SQLite file in a temp folder or a fresh
// database on a real PostgreSQL (usePostgres), each closed after the test that opened it.
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { createSqliteEngine, openDatabase, openPostgresEngine, type SqlEngine, type StoreKind } from '../../electron/engine/store'
import { usePostgres } from './use-postgres'
import { useTempDir } from './use-temp-dir'

export function useBareEngines(): (kind: StoreKind) => Promise<SqlEngine> {
  const postgres = usePostgres()
  const temp = useTempDir()
  let open: SqlEngine[] = []
  afterEach(async () => {
    for (const engine of open) await engine.close()
    open = []
  })
  return async (kind) => {
    const engine =
      kind === 'sqlite'
        ? createSqliteEngine(openDatabase({ file: join(temp.dir, `hookloop-${open.length}.db`), notice: () => undefined }))
        : await openPostgresEngine({ url: await postgres.freshDatabase() })
    open.push(engine)
    return engine
  }
}
