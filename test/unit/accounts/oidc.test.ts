// The rules of a sign-in through the identity provider that hold before the provider is asked
// anything: its settings, and a callback refused for its flow (none, another state, too late).
// The whole flow against a real provider: test/integration/cli/serve-oidc.test.ts.
import { describe, expect, it } from 'vitest'
import { createOidc, OidcError, oidcSettingsProblem } from '../../../electron/engine/accounts'
import { createFlowSeal, OIDC_FLOW_TTL_MS } from '../../../electron/engine/accounts/oidc-flow'

const SETTINGS = { issuer: 'https://login.example.com', clientId: 'hookloop', clientSecret: 'client secret', name: 'Example SSO', newMemberRole: null }

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    if (error instanceof OidcError) return error.failure
    throw error
  }
  return 'none'
}

describe('signing in through an identity provider', () => {
  it('takes an https issuer, or http on loopback only, with a client id and secret', () => {
    expect(oidcSettingsProblem(SETTINGS)).toBeNull()
    expect(oidcSettingsProblem({ ...SETTINGS, issuer: 'http://127.0.0.1:9000' })).toBeNull()
    expect(oidcSettingsProblem({ ...SETTINGS, issuer: 'http://login.example.com' })).toMatch(/must be an https:\/\/ URL/)
    expect(oidcSettingsProblem({ ...SETTINGS, issuer: 'login.example.com' })).toMatch(/must be a URL/)
    expect(oidcSettingsProblem({ ...SETTINGS, clientSecret: '' })).toBe('the client secret is empty')
  })

  it('refuses a callback without its flow, with another state, or after the flow expired', async () => {
    let now = 0
    const oidc = createOidc(SETTINGS, { now: () => now })
    const sealed = createFlowSeal(SETTINGS.clientSecret).seal({ state: 's1', nonce: 'n', verifier: 'v', expiresAt: OIDC_FLOW_TTL_MS })
    const callback = (state: string) => new URL(`http://127.0.0.1/auth/oidc/callback?code=c&state=${state}`)
    const redirectUri = 'http://127.0.0.1/auth/oidc/callback'
    expect(await failureOf(oidc.finish(callback('s1'), redirectUri, undefined))).toBe('bad_state')
    expect(await failureOf(oidc.finish(callback('s2'), redirectUri, sealed))).toBe('bad_state')
    expect(await failureOf(oidc.finish(callback('s1'), redirectUri, createFlowSeal('another secret').seal({ state: 's1', nonce: 'n', verifier: 'v', expiresAt: OIDC_FLOW_TTL_MS })))).toBe('bad_state')
    now = OIDC_FLOW_TTL_MS + 1
    expect(await failureOf(oidc.finish(callback('s1'), redirectUri, sealed))).toBe('expired')
  })
})
