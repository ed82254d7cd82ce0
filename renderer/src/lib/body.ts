// Bodies arrive as base64 (raw bytes, never re-serialised). Views: pretty JSON, raw text, hex.

export function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

export function bodyText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes)
}

/** Pretty JSON when the body parses, otherwise null. */
export function prettyJson(text: string): string | null {
  if (text.trim() === '') return null
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return null
  }
}

/** Classic hex dump: offset, 16 bytes, printable characters. Capped for very large bodies. */
export function hexDump(bytes: Uint8Array, maxBytes = 64 * 1024): string {
  const lines: string[] = []
  const end = Math.min(bytes.length, maxBytes)
  for (let offset = 0; offset < end; offset += 16) {
    const chunk = bytes.subarray(offset, Math.min(offset + 16, end))
    const hex = Array.from(chunk, (b) => b.toString(16).padStart(2, '0')).join(' ')
    const text = Array.from(chunk, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('')
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${text}`)
  }
  if (bytes.length > end) lines.push(`… ${bytes.length - end} more bytes`)
  return lines.join('\n')
}
