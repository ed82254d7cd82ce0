// Log lines built from what strangers send: one line each, no terminal control, bounded, no secrets.
import { describe, expect, it } from 'vitest'
import { cut, escapeControls, logKey, logRequestLine, redactQuery } from '../../../electron/cli/safe-log'
import { createRequestLog } from '../../../electron/cli/listen'

describe('safe log text', () => {
  it('escapes newlines, ESC and other controls', () => {
    expect(escapeControls('a\nb\rc\u001b[31mred\u0007\u2028')).toBe('a\\nb\\rc\\x1b[31mred\\x07\\u2028')
    expect(escapeControls('back\\slash')).toBe('back\\\\slash')
  })
  it('cuts long values and notes their full size', () => {
    const out = cut('x'.repeat(10 * 1024 * 1024))
    expect(out.length).toBeLessThan(200)
    expect(out).toContain('(10485760 bytes)')
  })
  it('redacts query parameters whose name says secret', () => {
    expect(redactQuery('token=abc&page=2&api_key=k&X-Signature=s&sig=1&password=p&q=token')).toBe('token=[redacted]&page=2&api_key=[redacted]&X-Signature=[redacted]&sig=[redacted]&password=[redacted]&q=token')
    expect(logRequestLine('GET', '/h/c', 'access%5Ftoken=zzz')).toBe('GET /h/c?access%5Ftoken=[redacted]')
  })
  it('marks a digest key', () => {
    expect(logKey('sha256:ab', { reason: 'too_long', bytes: 10 })).toBe('sha256:ab[too-long:10B]')
  })
  it('a forged key cannot add a log line', () => {
    const lines: string[] = []
    const log = createRequestLog((line) => lines.push(line))
    const request = { id: 1, endpointId: 'e', endpointSlug: 'c', receivedAt: 0, method: 'POST', path: '/h/c\u001b]0;pwned\u0007', query: 'token=secret', httpVersion: '1.1', bodySize: 0, bodyTruncated: false, remoteAddress: null, attemptId: null, dedupeKey: 'evt\n2026-01-01T00:00:00.000Z  c  POST /h/c  key=fake' }
    log({ type: 'request.captured', request })
    log({ type: 'request.responded', requestId: 1, ruleId: null, fault: null, outcome: 'replied', status: 200, durationMs: 1 })
    expect(lines).toHaveLength(1)
    for (const control of ['\n', '\u001b', '\u0007']) expect(lines[0]).not.toContain(control)
    expect(lines[0]).not.toContain('secret')
  })
})
