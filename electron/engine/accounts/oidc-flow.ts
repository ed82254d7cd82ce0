// One sign-in through an identity provider between its start and its callback: the state, the
// nonce and the PKCE verifier it was started with. They travel in a cookie sealed with AES-256-GCM
// under a key derived from the client secret, so every serve process of a team (they share that
// secret) finishes a flow another one started, nothing is stored, and the browser can neither read
// the verifier nor change a value without the seal failing.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/** How long a flow may take at the provider (signing in, consenting) before its callback is refused. */
export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000

export interface OidcFlow {
  state: string
  nonce: string
  verifier: string
  /** Wall-clock ms after which the callback is refused as expired. */
  expiresAt: number
}

export interface FlowSeal {
  seal(flow: OidcFlow): string
  /** The flow, or null when the value was not sealed by us (changed, cut, another key). Expiry is the caller's to judge. */
  open(sealed: string): OidcFlow | null
}

export function createFlowSeal(clientSecret: string): FlowSeal {
  const key = Buffer.from(hkdfSync('sha256', clientSecret, 'hookloop', 'oidc sign-in flow', 32))
  return {
    seal(flow) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
    },
    open(sealed) {
      try {
        const raw = Buffer.from(sealed, 'base64url')
        if (raw.length < 29) return null
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
        decipher.setAuthTag(raw.subarray(12, 28))
        const flow = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as Partial<OidcFlow>
        const complete = typeof flow.state === 'string' && typeof flow.nonce === 'string' && typeof flow.verifier === 'string' && typeof flow.expiresAt === 'number'
        return complete ? (flow as OidcFlow) : null
      } catch {
        return null
      }
    },
  }
}
