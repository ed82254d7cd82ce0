export type StoreErrorCode = 'open_failed' | 'newer_schema' | 'migration_failed' | 'not_a_database' | 'secrets_locked' | 'unreachable' | 'bad_location' | 'needs_data_folder'

/** A store that cannot be used is a clear error, never a silent fallback to an empty database. */
export class StoreError extends Error {
  override readonly name = 'StoreError'
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}
