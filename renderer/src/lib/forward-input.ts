// What a person types for forward mode, read into what the engine takes: several forward targets
// in one field, and headers to set on a resend as "Name: value" lines.
import type { HeaderPair } from '../../../shared/contract'

/** Several targets in one field: separated by spaces, commas or new lines. */
export function splitTargets(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter((t) => t !== '')
}

/** "Name: value" lines → headers to set; a line without a name before its colon is named as the problem. */
export function parseHeaderLines(text: string): { headers: HeaderPair[]; problem: string | null } {
  const headers: HeaderPair[] = []
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue
    const colon = line.indexOf(':')
    if (colon <= 0) return { headers, problem: `headers, line ${i + 1}: write it as "Name: value"` }
    headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() })
  }
  return { headers, problem: null }
}
