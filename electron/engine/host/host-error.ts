// The one place engine errors become command errors. Each error class the engine throws for bad
// input or an impossible operation gets the code the UI can act on; anything else (a TypeError, a
// failed assertion) is a bug and stays what it is, so the control server answers it as internal.
import type { ErrorCode } from '../../../shared/contract'
import { DefinitionError, EditConflictError } from '../../../shared/receiver'
import { ConsumerCheckInputError, ConsumerUnreachableError, UnknownEndpointError } from '../conformance'
import { ExportSelectionError, ImportError } from '../exports'
import { RecordingError } from '../recorder'
import { SenderError, type SenderErrorCode } from '../sender'
import { SecretFormatError } from '../signatures'
import { StoreError, type SqlEngine } from '../store'

/** A command that cannot be done, with a code the UI can act on and a sentence it can show. */
export class HostError extends Error {
  override readonly name = 'HostError'
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Refuses a command whose part still reads a data folder's SQLite file synchronously (the sender
 * conformance check, the recorder) when this Hookloop runs on a team's PostgreSQL: a clear answer
 * to the UI, never a failure deep in the engine.
 */
export function needsDataFolder(store: SqlEngine, what: string, why = 'it still reads a SQLite file', instead?: string): void {
  if (store.kind !== 'postgres') return
  throw new HostError('unavailable', `${what} needs a data folder: ${why}, and this Hookloop runs on the team's PostgreSQL at ${store.where}${instead === undefined ? '' : `; ${instead}`}`)
}

const SENDER_CODES: Record<SenderErrorCode, ErrorCode> = {
  not_found: 'not_found',
  conflict: 'conflict',
  in_flight: 'conflict',
  invalid_event: 'bad_request',
  invalid_subscription: 'bad_request',
  stopped: 'unavailable',
}

/** The command error an engine error stands for; null for anything that is not one (a bug). */
export function hostErrorOf(error: unknown): HostError | null {
  if (error instanceof HostError) return error
  if (error instanceof SenderError) return new HostError(SENDER_CODES[error.code], error.message)
  if (error instanceof DefinitionError || error instanceof ConsumerCheckInputError || error instanceof SecretFormatError) return new HostError('bad_request', error.message)
  if (error instanceof ExportSelectionError) return new HostError('bad_request', `export: ${error.message}`)
  if (error instanceof ImportError) return new HostError('bad_request', `import: ${error.message}`)
  if (error instanceof RecordingError || error instanceof EditConflictError) return new HostError('conflict', error.message)
  if (error instanceof ConsumerUnreachableError) return new HostError('unavailable', error.message)
  if (error instanceof UnknownEndpointError) return new HostError('not_found', error.message)
  // A part that still reads a data folder, asked on a team's PostgreSQL: said, not a crash.
  if (error instanceof StoreError && error.code === 'needs_data_folder') return new HostError('unavailable', error.message)
  return null
}
