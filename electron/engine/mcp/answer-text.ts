// How the tools' answers hold what was captured: headers and query strings with every credential
// blanked (shared/redaction.ts, as exports and logs do), bodies as text when they are text, wall
// times as ISO strings and simulated ones as time into their run (momentOn). The answer's final
// text is passed over once more for every known secret value.
import type { HeaderPair } from '../../../shared/contract'
export { iso, momentOn } from '../host'
import { redactHeaderPairs, redactKnownValues, redactQuery, redactUrl } from '../../../shared/redaction'

export function redactedHeaders(pairs: readonly HeaderPair[], seen: Set<string>): HeaderPair[] {
  return redactHeaderPairs(
    pairs.map((p) => [p.name, p.value] as const),
    seen,
  ).map(([name, value]) => ({ name, value }))
}

export { redactQuery, redactUrl }

const isBinaryControl = (ch: string): boolean => {
  const code = ch.charCodeAt(0)
  return code < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r' && ch !== '\f' && ch !== '\v'
}

/** A body as UTF-8 text when it is text, else base64 (so binary bytes reach the agent intact). */
export function bodyOf(base64: string): { text: string } | { base64: string } | null {
  if (base64 === '') return null
  const bytes = Buffer.from(base64, 'base64')
  const text = bytes.toString('utf8')
  // U+FFFD: bytes that are not UTF-8; control characters other than whitespace: binary.
  if (text.includes('\uFFFD') || [...text].some(isBinaryControl)) return { base64 }
  return { text }
}


/** The answer as the JSON text an agent reads, with every known secret value blanked wherever it is. */
export function answerText(value: unknown, secrets: Iterable<string>): string {
  return redactKnownValues(JSON.stringify(value, null, 2), secrets)
}

/** A sentence (a refusal, an error) with every known secret value blanked. */
export const sentenceText = (text: string, secrets: Iterable<string>): string => redactKnownValues(text, secrets)

/**
 * A time on a row's clock: ISO on the wall clock; on a simulation's clock the time into the run,
 * marked simulated ("+14 m 00 s into the run (simulated)"), never a date (docs/time.md). The wall
 * time goes beside it in a field of its own (…WallAt).
 */
