import type { NetworkOutcome } from '../../../shared/sender'

// Maps what Node / undici throw to the outcome words of a policy. The code may sit on the error
// itself or on its cause (undici wraps socket errors).

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA', 'ENODATA'])
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED'])

function codesOf(error: unknown): string[] {
  const codes: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') codes.push(code)
    current = (current as { cause?: unknown }).cause
  }
  return codes
}

export function classifyNetworkError(error: unknown): NetworkOutcome {
  const codes = codesOf(error)
  if (codes.includes('ECONNREFUSED')) return 'connection_refused'
  if (codes.some((c) => DNS_CODES.has(c))) return 'dns'
  if (codes.some((c) => RESET_CODES.has(c))) return 'reset'
  if (codes.includes('UND_ERR_HEADERS_TIMEOUT') || codes.includes('UND_ERR_BODY_TIMEOUT') || codes.includes('ETIMEDOUT')) return 'timeout'
  return 'connection_error'
}
