export type SenderErrorCode = 'invalid_subscription' | 'invalid_event' | 'not_found' | 'conflict' | 'in_flight' | 'stopped'

/** Bad input or an impossible operation, with a sentence naming what is wrong. */
export class SenderError extends Error {
  override readonly name = 'SenderError'
  constructor(
    readonly code: SenderErrorCode,
    message: string,
  ) {
    super(message)
  }
}
