import { describe, expect, it } from 'vitest'
import { sign, verify } from '../../../electron/engine/signatures'

// GitLab's X-Gitlab-Token is the hook's secret token itself, compared as is: nothing else of the
// request is covered, and a result never repeats the token whole.

const TOKEN = 'glwht-7f3c1d9e2b8a4c6f'
const body = Buffer.from('{"object_kind":"push"}')

describe('gitlab token', () => {
  it('sends the token as is and accepts it, whatever the body', () => {
    const headers = sign('gitlab', { body, secret: TOKEN })
    expect(headers).toEqual({ 'x-gitlab-token': TOKEN })
    expect(verify('gitlab', { body: Buffer.from('{"object_kind":"tag_push"}'), headers, secrets: [TOKEN] })).toMatchObject({ valid: true, reason: 'ok', secretIndex: 0 })
    expect(verify('gitlab', { body, headers, secrets: [TOKEN] }).detail).toMatch(/only the token is checked/)
  })

  it('refuses another token and never shows either token whole', () => {
    const result = verify('gitlab', { body, headers: { 'x-gitlab-token': 'glwht-0000000000000000' }, secrets: [TOKEN] })
    expect(result).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(JSON.stringify(result)).not.toContain(TOKEN)
    expect(JSON.stringify(result)).not.toContain('glwht-0000000000000000')
    expect(result.received).toMatch(/^glwh… \(22 characters\)$/)
  })

  it('names spaces around a pasted token, and a repeated header', () => {
    expect(verify('gitlab', { body, headers: { 'x-gitlab-token': TOKEN }, secrets: [`${TOKEN}\n`] }).detail).toMatch(/spaces or a newline/)
    expect(verify('gitlab', { body, headers: { 'x-gitlab-token': [TOKEN, TOKEN] }, secrets: [TOKEN] })).toMatchObject({ valid: false, reason: 'malformed_header' })
  })
})
