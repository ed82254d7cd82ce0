// Signing in through a team's OpenID Connect provider (docs/team.md, "Signing in with your
// company's identity provider"), with openid-client: the authorization code flow with PKCE (S256),
// a state and a nonce. openid-client checks the ID token (its signature against the provider's
// keys, issuer, audience, expiry, nonce) and the state; here the flow is started and finished, and
// the person the provider vouches for is reduced to one thing: a verified email address.
import * as client from 'openid-client'
import type { Role } from '../../../shared/contract'
import { createFlowSeal, OIDC_FLOW_TTL_MS, type OidcFlow } from './oidc-flow'

export interface OidcSettings {
  /** The provider's issuer URL (its discovery document is at <issuer>/.well-known/openid-configuration). */
  issuer: string
  clientId: string
  /** Never on the command line: from the environment or a file. */
  clientSecret: string
  /** What the sign-in page's button says: "Sign in with <name>". */
  name: string
  /** The role a verified address with no account here is given; null: refused (the default). */
  newMemberRole: Role | null
}

export type OidcFailure =
  /** The provider could not be reached or its discovery document read. */
  | 'unreachable'
  /** The provider answered the callback with an error (access_denied: the person cancelled or was refused). */
  | 'denied'
  /** No flow cookie, or one that is not ours, or a state that is not the flow's. */
  | 'bad_state'
  | 'expired'
  /** The provider's answer did not pass the checks (ID token, code exchange). */
  | 'invalid'
  /** The provider vouches for no email, or for one it has not verified. */
  | 'unverified_email'

export class OidcError extends Error {
  constructor(
    readonly failure: OidcFailure,
    message: string,
  ) {
    super(message)
  }
}

/** Who the provider vouches for. */
export interface OidcPerson {
  email: string
  name: string
}

export interface Oidc {
  readonly name: string
  readonly newMemberRole: Role | null
  /** The provider's authorization URL to send the browser to, and the flow sealed for its cookie. */
  start(redirectUri: string): Promise<{ url: string; sealedFlow: string }>
  /** The callback's URL (as the browser requested it, on our redirect URI) with the flow's cookie: the person. */
  finish(callbackUrl: URL, redirectUri: string, sealedFlow: string | undefined): Promise<OidcPerson>
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Why these settings cannot be used, or null. An issuer is https, or http on this machine (a provider run beside Hookloop). */
export function oidcSettingsProblem(settings: Pick<OidcSettings, 'issuer' | 'clientId' | 'clientSecret'>): string | null {
  let issuer: URL
  try {
    issuer = new URL(settings.issuer)
  } catch {
    return `the issuer must be a URL such as https://login.example.com, got "${settings.issuer}"`
  }
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname))) return `the issuer must be an https:// URL (http:// only on loopback), got "${settings.issuer}"`
  if (!settings.clientId) return 'the client id is empty'
  if (!settings.clientSecret) return 'the client secret is empty'
  return null
}

export function createOidc(settings: OidcSettings, options: { now?: () => number } = {}): Oidc {
  const now = options.now ?? Date.now
  const seal = createFlowSeal(settings.clientSecret)
  const issuer = new URL(settings.issuer)
  // The discovery document is read once; a failed read is tried again by the next sign-in.
  let configuration: Promise<client.Configuration> | null = null
  const discovered = (): Promise<client.Configuration> => {
    configuration ??= client
      .discovery(issuer, settings.clientId, undefined, client.ClientSecretBasic(settings.clientSecret), {
        timeout: 10,
        ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        configuration = null
        throw new OidcError('unreachable', `the identity provider at ${issuer.origin} could not be reached: ${reason(error)}`)
      })
    return configuration
  }

  return {
    name: settings.name,
    newMemberRole: settings.newMemberRole,
    async start(redirectUri) {
      const config = await discovered()
      const flow: OidcFlow = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), expiresAt: now() + OIDC_FLOW_TTL_MS }
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      })
      return { url: url.href, sealedFlow: seal.seal(flow) }
    },
    async finish(callbackUrl, redirectUri, sealedFlow) {
      const flow = sealedFlow ? seal.open(sealedFlow) : null
      if (!flow || callbackUrl.searchParams.get('state') !== flow.state) throw new OidcError('bad_state', 'this sign-in was not started here, or its state was changed')
      if (now() > flow.expiresAt) throw new OidcError('expired', 'this sign-in took too long')
      const error = callbackUrl.searchParams.get('error')
      if (error) throw new OidcError('denied', `the identity provider answered ${error}`)
      const config = await discovered()
      // openid-client matches the callback against the redirect URI it was sent to: the one people open,
      // whatever Host the request arrived with behind a proxy.
      const current = new URL(redirectUri)
      current.search = callbackUrl.search
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
      try {
        tokens = await client.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true })
      } catch (failure) {
        throw new OidcError('invalid', `the identity provider's answer was refused: ${reason(failure)}`)
      }
      const claims = tokens.claims()
      if (!claims) throw new OidcError('invalid', 'the identity provider sent no ID token')
      // Many providers put the address in the ID token; others only at the userinfo endpoint, read
      // with the access token and checked to be about the ID token's subject.
      let person: Record<string, unknown> = claims
      if (typeof claims.email !== 'string') {
        try {
          person = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims }
        } catch (failure) {
          throw new OidcError('invalid', `the identity provider's userinfo was refused: ${reason(failure)}`)
        }
      }
      const email = typeof person.email === 'string' ? person.email.trim() : ''
      // An address the provider has not verified could be anyone's: it never names a member here.
      if (!email || person.email_verified !== true) throw new OidcError('unverified_email', email ? `the identity provider has not verified ${email}` : 'the identity provider gave no email address')
      return { email, name: typeof person.name === 'string' ? person.name : '' }
    },
  }
}

// What went wrong, in the library's words: its messages name checks and claims, never a code or a token.
const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error))
