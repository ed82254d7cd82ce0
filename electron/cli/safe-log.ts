// Text that came from the network, made safe for a log line: anyone with the public URL chooses
// the path, the query and the dedupe key. Control characters (newlines that would forge a line,
// ESC sequences that would drive the terminal) are escaped, long values are cut with their full
// size noted, and query parameters whose name says they carry a secret are redacted.
import type { CapturedRequest, DedupeKeyMark } from '../../shared/receiver'
import { redactQuery as redactSecretQuery } from '../../shared/redaction'

/** Longest piece of request text printed as is. */
export const LOG_FIELD_MAX = 120

/** `\n` → `\\n`, ESC → `\\x1b`, DEL and C1 controls, bidi overrides and line separators → `\\u…`. */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\\\'
      case '\n':
        return '\\n'
      case '\r':
        return '\\r'
      case '\t':
        return '\\t'
      default: {
        const code = c.charCodeAt(0)
        return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
      }
    }
  })
}

/** Cuts a value to `max` characters (before escaping), noting how long it was. */
export function cut(text: string, max = LOG_FIELD_MAX): string {
  if (text.length <= max) return escapeControls(text)
  const bytes = Buffer.byteLength(text, 'utf8')
  return `${escapeControls(text.slice(0, max))}…(${bytes} bytes)`
}

/** The query with secret-named parameters' values replaced (names and order kept): the exports' rule, shared/redaction.ts. */
export function redactQuery(query: string): string {
  return redactSecretQuery(query)
}

/** `METHOD /path?query` for a log line: redacted, escaped and cut. */
export function logRequestLine(method: string, path: string, query: string): string {
  const q = redactQuery(query)
  return `${cut(method, 24)} ${cut(path)}${q ? `?${cut(q)}` : ''}`
}

/** `key=` of a log line: the key cut to a readable length, with its digest mark when it has one. */
export function logKey(key: string | null, mark: DedupeKeyMark | null, from: string | null = null): string {
  if (key === null) return '-'
  const text = cut(key, 80)
  // An automatic key says where it was found: "evt_1(auto:body.id)".
  const found = from === null ? '' : `(auto:${cut(from, 60)})`
  if (!mark) return `${text}${found}`
  return `${text}[${mark.reason === 'too_long' ? 'too-long' : 'not-utf8'}:${mark.bytes}B]${found}`
}

/** The end of a log line: why the request was refused, or why its body was not inspected. */
export function logNotes(request: Pick<CapturedRequest, 'refusedReason' | 'notInspected'>): string {
  let notes = ''
  if (request.refusedReason) notes += `  refused="${cut(request.refusedReason)}"`
  if (request.notInspected) notes += `  not-inspected="${cut(request.notInspected)}"`
  return notes
}
