// Migrations on PostgreSQL: the same MIGRATIONS list as SQLite (each step's `postgres` text), on
// a database that starts from the baseline (store/postgres-schema.ts). All steps run in one
// transaction under an advisory lock, so processes starting together migrate once and a failure
// leaves the database at its old version. A database from a newer Hookloop is refused.
import { MIGRATIONS, type Migration } from './migrations'
import { POSTGRES_BASELINE, POSTGRES_BASELINE_VERSION } from './postgres-schema'
import type { SqlEngine } from './sql-engine'
import { StoreError } from './store-error'

// pg_advisory_xact_lock's key: any constant the team's other applications are unlikely to use.
const MIGRATION_LOCK = 7_304_151_122

export interface PostgresMigration {
  from: number
  to: number
  /** The steps applied, in words ("baseline (schema 10)", "11 requests.stored_at"). */
  steps: string[]
}

export async function postgresSchemaVersion(engine: SqlEngine): Promise<number> {
  const table = await engine.get<{ name: string | null }>("SELECT to_regclass('hookloop_schema')::text AS name")
  if (!table?.name) return 0
  return (await engine.get<{ version: number }>('SELECT version FROM hookloop_schema'))?.version ?? 0
}

export async function migratePostgres(engine: SqlEngine, migrations: readonly Migration[] = MIGRATIONS): Promise<PostgresMigration> {
  const latest = migrations[migrations.length - 1]?.version ?? 0
  return engine.transaction(async (tx) => {
    await tx.get('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK])
    const from = await postgresSchemaVersion(tx)
    if (from > latest) {
      throw new StoreError(
        'newer_schema',
        `the PostgreSQL store at ${engine.where} was written by a newer Hookloop (schema version ${from}; this version knows up to ${latest}). Update Hookloop on this machine.`,
      )
    }
    const steps: string[] = []
    let version = from
    let step = 'the baseline'
    try {
      if (version === 0) {
        await tx.exec('CREATE TABLE hookloop_schema (version INTEGER NOT NULL)')
        await tx.exec(`INSERT INTO hookloop_schema (version) VALUES (0)`)
        if (latest >= POSTGRES_BASELINE_VERSION) {
          await tx.exec(POSTGRES_BASELINE)
          version = POSTGRES_BASELINE_VERSION
          steps.push(`baseline (schema ${POSTGRES_BASELINE_VERSION})`)
        }
      }
      for (const migration of migrations) {
        if (migration.version <= version) continue
        if (migration.postgres === undefined) {
          throw new StoreError('migration_failed', `migration ${migration.version} (${migration.name}) has no PostgreSQL step`)
        }
        step = `step ${migration.version} (${migration.name})`
        await tx.exec(migration.postgres)
        version = migration.version
        steps.push(`${migration.version} ${migration.name}`)
      }
      await tx.run('UPDATE hookloop_schema SET version = ?', [version])
    } catch (error) {
      if (error instanceof StoreError) throw error
      throw new StoreError(
        'migration_failed',
        `migrating the PostgreSQL store at ${engine.where} from schema version ${from} failed at ${step}: ${error instanceof Error ? error.message : String(error)}. Nothing was changed: the database stays at version ${from}.`,
        { cause: error },
      )
    }
    return { from, to: version, steps }
  })
}
