import { describe, expect, it } from 'vitest'
import { sign, verify } from '../../../electron/engine/signatures'
import { judgeSuite } from './judge-suite'

// PagerDuty signs the body only (no timestamp): a stale delivery is not a refusal case.
judgeSuite('pagerduty')

describe('PagerDuty secret rotation', () => {
  it('a delivery signed with two secrets carries v1=…,v1=… and verifies with either', () => {
    const body = Buffer.from('{"event":{"id":"01HOOK"}}')
    const headers = sign('pagerduty', { body, secret: 'new-secret', additionalSecrets: ['old-secret'] })
    expect(headers['x-pagerduty-signature']).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/)
    expect(verify('pagerduty', { body, headers, secrets: ['old-secret'] }).valid).toBe(true)
    expect(verify('pagerduty', { body, headers, secrets: ['new-secret'] }).valid).toBe(true)
    expect(verify('pagerduty', { body, headers, secrets: ['another'] }).reason).toBe('signature_mismatch')
  })
})
