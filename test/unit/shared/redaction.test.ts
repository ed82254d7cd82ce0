import { describe, expect, it } from 'vitest'
import { isSecretName, redactForLog, redactHeaderPairs, redactKnownValues, redactQuery, redactUrl, REDACTED_VALUE } from '../../../shared/redaction'

describe('secret names', () => {
  it.each([
    'X-Gitlab-Token',
    'X-Webhook-Secret',
    'X-Auth-Token',
    'Authorization',
    'x-api-key',
    'apiKey',
    'access_token',
    'client_secret',
    'password',
    'X-Hub-Signature-256',
    'sig',
    'Cookie',
    'X-Zoom-Auth',
    'private-key',
  ])('%s says secret', (name) => expect(isSecretName(name)).toBe(true))

  it.each(['content-type', 'x-request-id', 'webhook-id', 'Idempotency-Key', 'author', 'keyword', 'monkeys', 'page', 'x-github-event'])('%s does not', (name) =>
    expect(isSecretName(name)).toBe(false),
  )
})

describe('query strings and URLs', () => {
  it('blanks secret-named parameters, keeps the rest byte for byte, collects the values', () => {
    const seen = new Set<string>()
    expect(redactQuery('a=1&token=tok_123456&b=%20x&api_key=k%2Fabcd&flag', seen)).toBe(`a=1&token=${REDACTED_VALUE}&b=%20x&api_key=${REDACTED_VALUE}&flag`)
    expect([...seen].sort()).toEqual(['k%2Fabcd', 'k/abcd', 'tok_123456'].sort())
  })

  it('judges an encoded name by what it decodes to', () => {
    expect(redactQuery('%74oken=abcdef')).toBe(`%74oken=${REDACTED_VALUE}`)
  })

  it('redacts a URL and keeps its path and fragment', () => {
    expect(redactUrl('http://h/x?id=1&secret=s3cr3t#frag')).toBe(`http://h/x?id=1&secret=${REDACTED_VALUE}#frag`)
    expect(redactUrl('http://h/x')).toBe('http://h/x')
  })
})

describe('headers, known values and log lines', () => {
  it('blanks secret headers and remembers their values', () => {
    const seen = new Set<string>()
    const out = redactHeaderPairs([['X-Gitlab-Token', 'glpat-abcdefgh'], ['content-type', 'application/json']], seen)
    expect(out).toEqual([['X-Gitlab-Token', REDACTED_VALUE], ['content-type', 'application/json']])
    expect(seen.has('glpat-abcdefgh')).toBe(true)
  })

  it('removes every known secret, JSON-escaped forms included, and leaves short values alone', () => {
    expect(redactKnownValues('a "whsec_a/b\\"c" b abc', ['whsec_a/b"c', 'abc'])).toBe(`a "${REDACTED_VALUE}" b abc`)
  })

  it('redacts query secrets anywhere in a log line without eating what follows', () => {
    const line = '2026-01-01T00:00:00.000Z  shop  POST /h/shop?x=1&token=tok_abcdef  key=-  status=200  3ms'
    expect(redactForLog(line)).toBe(`2026-01-01T00:00:00.000Z  shop  POST /h/shop?x=1&token=${REDACTED_VALUE}  key=-  status=200  3ms`)
    expect(redactForLog('sent whsec_secretvalue to /h/a?access_token=zzzz', ['whsec_secretvalue'])).toBe(`sent ${REDACTED_VALUE} to /h/a?access_token=${REDACTED_VALUE}`)
  })
})
