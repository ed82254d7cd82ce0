// A request as a cURL command that sends the same bytes: the one builder behind "Copy as cURL" (the
// renderer) and the cURL export (a bash script). No Node modules: it runs in the renderer too.
//
// One set of rules (which headers curl writes itself, how an empty header is sent, quoting) and
// two styles, which differ only in layout and in how a body is written:
// - 'line', for pasting into a terminal: one line; a UTF-8 body stays readable in single quotes,
//   any other body is piped in through printf escapes;
// - 'script', for a file: one argument per line, `-sS`; a body goes as $'…' (ANSI-C quoting,
//   every byte escaped that needs it), or through base64 -d when it holds a NUL byte.
// A shell argument cannot carry a NUL byte, hence the pipes.
import type { HeaderPair } from './contract'

export type CurlStyle = 'line' | 'script'

export interface CurlRequest {
  method: string
  url: string
  headers: readonly HeaderPair[]
  body: Uint8Array
}

/** Headers curl writes itself, or that would break a resend. */
const SKIP = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade'])

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** $'…' with every byte outside printable ASCII, and \ and ', escaped: exact bytes, any content without NUL. */
export function ansiCQuote(bytes: Uint8Array): string {
  let out = "$'"
  for (const byte of bytes) {
    if (byte === 0x5c) out += '\\\\'
    else if (byte === 0x27) out += "\\'"
    else if (byte === 0x0a) out += '\\n'
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte)
    else out += `\\x${byte.toString(16).padStart(2, '0')}`
  }
  return out + "'"
}

function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** The body as a --data-binary argument, or as a command that pipes it in (then the argument is @-). */
function bodyOf(bytes: Uint8Array, style: CurlStyle): { argument: string } | { pipe: string } {
  if (style === 'line') {
    const text = utf8(bytes)
    if (text !== null) return { argument: shellQuote(text) }
    return { pipe: `printf '${Array.from(bytes, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}'` }
  }
  if (!bytes.includes(0)) return { argument: ansiCQuote(bytes) }
  return { pipe: `printf %s ${shellQuote(base64(bytes))} | base64 -d` }
}

export function curlCommand(request: CurlRequest, style: CurlStyle = 'line'): string {
  // A method that is a plain token needs no quotes (it never does, as Node parses requests).
  const method = /^[A-Za-z0-9_-]+$/.test(request.method) ? request.method : shellQuote(request.method)
  const parts = [`curl${style === 'script' ? ' -sS' : ''} -X ${method} ${shellQuote(request.url)}`]
  for (const { name, value } of request.headers) {
    if (SKIP.has(name.toLowerCase())) continue
    // curl drops a header given as "name:" — "name;" sends it empty.
    parts.push(`-H ${shellQuote(value === '' ? `${name};` : `${name}: ${value}`)}`)
  }
  const body = request.body.length > 0 ? bodyOf(request.body, style) : null
  if (body) parts.push(`--data-binary ${'argument' in body ? body.argument : '@-'}`)
  const command = parts.join(style === 'script' ? ' \\\n  ' : ' ')
  return body && 'pipe' in body ? `${body.pipe} | ${command}` : command
}
