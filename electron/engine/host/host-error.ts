import type { ErrorCode } from '../../../shared/contract'

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
