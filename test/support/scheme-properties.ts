import fc from 'fast-check'
import { it } from 'vitest'
import type { SchemeId } from '../../shared/signatures'

/**
 * One property test per scheme in `secrets`, named by `title`: `check` runs on random body bytes
 * (1 to `maxLength`) and a random v4 event id, `numRuns` times.
 */
export function propertyPerScheme(
  secrets: Partial<Record<SchemeId, string>>,
  title: (scheme: SchemeId) => string,
  runs: { maxLength: number; numRuns: number },
  check: (scheme: SchemeId, secret: string, bytes: Uint8Array, eventId: string) => void,
): void {
  for (const [scheme, secret] of Object.entries(secrets) as Array<[SchemeId, string]>) {
    it(title(scheme), () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 1, maxLength: runs.maxLength }), fc.uuid({ version: 4 }), (bytes, eventId) => check(scheme, secret, bytes, eventId)),
        { numRuns: runs.numRuns },
      )
    })
  }
}
