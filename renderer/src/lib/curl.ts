// "Copy as cURL": the request exactly as it went, quoted for a POSIX shell. Bodies that are not
// valid UTF-8 go through printf escapes (piped in) so no byte changes.
import type { HeaderPair } from '../../../shared/contract'

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

const SKIPPED = new Set(['host', 'content-length', 'connection', 'transfer-encoding'])

export function curlCommand(input: { method: string; url: string; headers: HeaderPair[]; body: Uint8Array }): string {
  const parts = ['curl', '-X', input.method, shellQuote(input.url)]
  for (const header of input.headers) {
    if (SKIPPED.has(header.name.toLowerCase())) continue
    parts.push('-H', shellQuote(`${header.name}: ${header.value}`))
  }
  if (input.body.length > 0) {
    let text: string | null
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input.body)
    } catch {
      text = null
    }
    if (text !== null) parts.push('--data-binary', shellQuote(text))
    else {
      // Piped in: a shell variable cannot hold NUL bytes or keep trailing newlines.
      const escaped = Array.from(input.body, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')
      parts.push('--data-binary', '@-')
      return `printf '${escaped}' | ${parts.join(' ')}`
    }
  }
  return parts.join(' ')
}
