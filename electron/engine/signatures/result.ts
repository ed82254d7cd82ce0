import type { SchemeId, VerifyReason, VerifyResult } from '../../../shared/signatures'

type Extra = Pick<VerifyResult, 'secretIndex' | 'expected' | 'received' | 'skewSeconds'>

export function ok(scheme: SchemeId, detail: string, extra: Extra = {}): VerifyResult {
  return { valid: true, scheme, reason: 'ok', detail, ...extra }
}

export function fail(scheme: SchemeId, reason: Exclude<VerifyReason, 'ok'>, detail: string, extra: Extra = {}): VerifyResult {
  return { valid: false, scheme, reason, detail, ...extra }
}

/** "the secret" / "any of the 3 secrets", for sentences. */
export function secretsPhrase(count: number): string {
  return count === 1 ? 'the secret' : `any of the ${count} secrets`
}
