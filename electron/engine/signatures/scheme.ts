import type { SignInput, VerifyInput, VerifyResult } from '../../../shared/signatures'

/** sign() after index.ts filled in the fresh id and the current time. */
export type ResolvedSignInput = SignInput & { id: string; timestamp: number }

export interface SchemeModule {
  sign(input: ResolvedSignInput): Record<string, string>
  verify(input: VerifyInput): VerifyResult
}
