// Signing in through the team's identity provider, on the control server's port (docs/team.md,
// "Signing in with your company's identity provider"): the start sends the browser to the provider
// with the flow sealed in a short-lived cookie (accounts/oidc-flow.ts); the callback finishes it
// (accounts/oidc.ts checks the state, the code, the ID token and the address) and opens a new
// session for the member with that verified address. Every way it fails is a page that says what
// happened, and a line in the log that says why (never a code, a token or the client secret).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { OIDC_FLOW_TTL_MS, OidcError, type Accounts, type Oidc, type OidcFailure } from '../accounts'
import { providerProblemPage, signedInPage } from './account-pages'
import type { AccountEvent } from './audit-record'

export const OIDC_CALLBACK_PATH = '/auth/oidc/callback'
/** The routes answered here, as `METHOD path` (account-routes.ts answers them beside its own). */
export const OIDC_ROUTES = ['GET /auth/oidc/start', 'GET /auth/oidc/callback'] as const
const FLOW_COOKIE = 'hookloop_oidc'

/** What the account gate lends these routes: its pages, cookies, sessions, rate limit and audit. */
export interface OidcRouteKit {
  accounts: Accounts
  oidc: Oidc
  /** The redirect URI registered at the provider: the address people open, then OIDC_CALLBACK_PATH. */
  redirectUri: () => string
  html(res: ServerResponse, status: number, body: string, extra?: Record<string, string | string[]>): void
  redirect(res: ServerResponse, to: string, setCookie?: string[]): void
  cookie(req: IncomingMessage, name: string, value: string, maxAgeS: number, scope?: { sameSite: 'Lax'; path: string }): string
  cookies(req: IncomingMessage): Map<string, string>
  newSession(req: IncomingMessage, secret: string): string[]
  /** Counts a sign-in attempt from the request's address: null, or the seconds to wait (the audit told). */
  attempt(req: IncomingMessage): Promise<number | null>
  /** The client's address a request came from, as the rate limit and the audit know it. */
  address(req: IncomingMessage): string
  record(event: AccountEvent): Promise<void>
  log(line: string): void
}

// The status and the words of each way a flow fails. The provider being down is its failure, not
// the browser's: 502.
const FAILURES: Record<OidcFailure, { status: number; says: (provider: string) => string }> = {
  unreachable: { status: 502, says: (p) => `${p} could not be reached. Try again in a moment, or sign in with your Hookloop password.` },
  denied: { status: 403, says: (p) => `The sign-in at ${p} was cancelled or refused.` },
  bad_state: { status: 400, says: () => 'This sign-in was not started in this browser, or it was changed on the way. Start again from the sign-in page.' },
  expired: { status: 400, says: () => 'This sign-in took too long. Start again from the sign-in page.' },
  invalid: { status: 400, says: (p) => `The answer from ${p} could not be verified. Start again from the sign-in page.` },
  unverified_email: { status: 403, says: (p) => `${p} has not verified your email address, so it cannot name a Hookloop account. Verify it there, then try again.` },
}

export function createOidcRoutes(kit: OidcRouteKit): { start(req: IncomingMessage, res: ServerResponse): Promise<void>; callback(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> } {
  const { oidc } = kit
  // The flow's cookie comes back on the provider's redirect, a navigation from another site: Lax,
  // not Strict, and only to these routes.
  const flowCookie = (req: IncomingMessage, value: string, maxAgeS: number): string => kit.cookie(req, FLOW_COOKIE, value, maxAgeS, { sameSite: 'Lax', path: '/auth/oidc' })
  const problem = (res: ServerResponse, status: number, message: string, extra: Record<string, string | string[]> = {}) =>
    kit.html(res, status, providerProblemPage('Not signed in', message), { 'cache-control': 'no-store', ...extra })

  function failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    if (!(error instanceof OidcError)) throw error
    kit.log(`hookloop: accounts: a sign-in through ${oidc.name} failed (${error.failure}): ${error.message}`)
    const { status, says } = FAILURES[error.failure]
    problem(res, status, says(oidc.name), { 'set-cookie': flowCookie(req, '', 0) })
  }

  return {
    async start(req, res) {
      try {
        const { url, sealedFlow } = await oidc.start(kit.redirectUri())
        kit.redirect(res, url, [flowCookie(req, sealedFlow, OIDC_FLOW_TTL_MS / 1000)])
      } catch (error) {
        failed(req, res, error)
      }
    },
    async callback(req, res, url) {
      // Each callback is a sign-in attempt, counted with the password's from the same address.
      const wait = await kit.attempt(req)
      if (wait !== null) return problem(res, 429, `Too many sign-in attempts: try again in ${wait} s.`, { 'retry-after': String(wait) })
      let person
      try {
        person = await oidc.finish(url, kit.redirectUri(), kit.cookies(req).get(FLOW_COOKIE))
      } catch (error) {
        return failed(req, res, error)
      }
      const signed = await kit.accounts.signInVouched(person, oidc.newMemberRole)
      const spent = flowCookie(req, '', 0)
      const method = { method: 'oidc', provider: oidc.name, address: kit.address(req) } as const
      if ('refused' in signed) {
        await kit.record({ kind: 'account.signInRefused', email: person.email, reason: signed.refused, ...method })
        kit.log(`hookloop: accounts: ${person.email} signed in at ${oidc.name} and was refused: ${signed.refused === 'unknown' ? 'no account' : 'the account is disabled'}`)
        const says = signed.refused === 'unknown' ? `There is no Hookloop account for ${person.email}. Ask an admin of this Hookloop for an invite.` : `The Hookloop account of ${person.email} is disabled.`
        return problem(res, 403, says, { 'set-cookie': spent })
      }
      if (signed.joined) await kit.record({ kind: 'account.join', account: signed.account, via: 'session', method: method.method, provider: method.provider })
      await kit.record({ kind: 'account.signIn', account: signed.account, via: 'session', ...method })
      kit.html(res, 200, signedInPage('/'), { 'cache-control': 'no-store', 'set-cookie': [...kit.newSession(req, signed.secret), spent] })
    },
  }
}
