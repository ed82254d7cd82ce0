// The store: one SQLite file per data folder. Each domain keeps its named prepared statements in
// a module of its own here (requests.ts, deliveries.ts …) built over the Database this opens.
export { growPageCache, transactional, openDatabase, openReader, pageCachePragma, type OpenDatabaseOptions } from './database'
export { migrate, schemaVersion, LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations'
export { DATA_FILE_NAME } from './data-file'
export { StoreError, type StoreErrorCode } from './store-error'
