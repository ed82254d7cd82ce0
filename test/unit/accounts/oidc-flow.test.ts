// The sealed cookie a sign-in through the identity provider carries between its start and its
// callback: what one key sealed opens with it, and nothing else does (a changed byte, a cut value,
// another client secret's key).
import { describe, expect, it } from 'vitest'
import { createFlowSeal, type OidcFlow } from '../../../electron/engine/accounts/oidc-flow'

const FLOW: OidcFlow = { state: 'the-state', nonce: 'the-nonce', verifier: 'the-pkce-verifier', expiresAt: 1_000 }

describe('the sealed sign-in flow', () => {
  it('opens what it sealed, and the sealed value shows none of it', () => {
    const seal = createFlowSeal('client secret')
    const sealed = seal.seal(FLOW)
    expect(seal.open(sealed)).toEqual(FLOW)
    for (const value of Object.values(FLOW)) expect(sealed).not.toContain(String(value))
    // Two seals of one flow differ (a fresh IV each): a cookie says nothing by comparison.
    expect(seal.seal(FLOW)).not.toBe(sealed)
  })

  it('opens nothing changed, cut, or sealed under another client secret', () => {
    const seal = createFlowSeal('client secret')
    const sealed = Buffer.from(seal.seal(FLOW), 'base64url')
    for (let at = 0; at < sealed.length; at += 7) {
      const changed = Buffer.from(sealed)
      changed[at] = (changed[at] ?? 0) ^ 1
      expect(seal.open(changed.toString('base64url')), `byte ${at}`).toBeNull()
    }
    expect(seal.open(sealed.subarray(0, 20).toString('base64url'))).toBeNull()
    expect(seal.open('')).toBeNull()
    expect(createFlowSeal('another secret').open(sealed.toString('base64url'))).toBeNull()
  })
})
