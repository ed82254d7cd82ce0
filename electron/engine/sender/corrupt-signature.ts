// The corrupt-signature fault: change a signature so it still parses exactly as the scheme's
// header grammar says (same length, same alphabet) and only the comparison fails. A receiver must
// answer `signature_mismatch`, never `malformed_header`, or a scenario expecting a mismatch
// becomes a coin toss.
//
// A header value holds prefixes, timestamps and separators around the signature(s)
// (`t=1700000000,v1=<hex>`, `v1,<base64> v1,<base64>`, `ts=…;h1=<hex>`). The signatures are its
// long tokens: every run of base64/hex characters of 20 or more (a 10-digit timestamp never is,
// the shortest signature, SHA-1 in base64, is 27). Each one gets one character changed, so a
// header carrying two signatures (a rotation) has both corrupted.

const TOKEN = /[A-Za-z0-9+/_-]{20,}/g
const HEX = /^[0-9a-fA-F]+$/

/** The character that replaces `c`: same alphabet (hex stays hex, case kept), never `c` itself. */
function swap(c: string, hex: boolean): string {
  if (/[0-9]/.test(c)) return String((Number(c) + 5) % 10)
  if (hex) {
    const lower = c.toLowerCase()
    const next = lower === 'f' ? 'a' : String.fromCharCode(lower.charCodeAt(0) + 1)
    return c === lower ? next : next.toUpperCase()
  }
  if (c === 'Z') return 'A'
  if (c === 'z') return 'a'
  return String.fromCharCode(c.charCodeAt(0) + 1)
}

// A character from the middle of the token: the last base64 character before `=` padding can
// carry padding bits only, and changing those decodes to the same bytes.
function corruptToken(token: string): string {
  const hex = HEX.test(token)
  for (let i = Math.floor(token.length / 2); i < token.length; i++) {
    const c = token.charAt(i)
    if (!/[0-9A-Za-z]/.test(c)) continue
    return token.slice(0, i) + swap(c, hex) + token.slice(i + 1)
  }
  // Not reached for a token of 20+ characters with letters or digits in its second half.
  return token
}

/** The header value with every signature in it changed by one character. */
export function corruptSignature(value: string): string {
  if (value.match(TOKEN)) return value.replace(TOKEN, corruptToken)
  // A short custom signature: change its longest alphanumeric run.
  const runs = value.match(/[A-Za-z0-9]+/g) ?? []
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), '')
  if (longest === '') return value
  const at = value.lastIndexOf(longest)
  return value.slice(0, at) + corruptToken(longest) + value.slice(at + longest.length)
}
