import { describe, expect, it } from 'vitest'
import { sign, verify } from '../../../electron/engine/signatures'

// PagerDuty lists one `v1=` signature per secret while a secret is rotated, comma separated, and
// a receiver accepts the delivery when any one matches.

describe('pagerduty secret rotation', () => {
  const body = Buffer.from('{"event":{"id":"01HOOK"}}')

  it('a delivery signed with two secrets carries v1=…,v1=… and verifies with either', () => {
    const headers = sign('pagerduty', { body, secret: 'new-secret', additionalSecrets: ['old-secret'] })
    expect(headers['x-pagerduty-signature']).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/)
    expect(verify('pagerduty', { body, headers, secrets: ['old-secret'] }).valid).toBe(true)
    expect(verify('pagerduty', { body, headers, secrets: ['new-secret'] }).valid).toBe(true)
    expect(verify('pagerduty', { body, headers, secrets: ['another'] }).reason).toBe('signature_mismatch')
  })

  it('names a header without v1= signatures', () => {
    expect(verify('pagerduty', { body, headers: { 'x-pagerduty-signature': 'v0=abcd' }, secrets: ['s'] })).toMatchObject({ valid: false, reason: 'no_matching_version' })
    expect(verify('pagerduty', { body, headers: { 'x-pagerduty-signature': 'v1=xyz' }, secrets: ['s'] })).toMatchObject({ valid: false, reason: 'malformed_header' })
  })
})
