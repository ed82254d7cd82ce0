// The HTTP side of accounts on the control server's port (docs/team.md, "Accounts"): sign in,
// sign out, join through a one-time link, and who is signed in. A session lives in an HttpOnly,
// SameSite=Strict cookie (Secure when the request came over TLS: the socket's, or the proxy's
// X-Forwarded-Proto with --trust-proxy). Every form post carries a CSRF token: before a session,
// the value of a pre-session cookie; with one, a value derived from the session's secret. Posts
// also pass the Origin check. Sign-in attempts are limited per address and per email. With the
// team's identity provider configured, people may sign in through it instead (oidc-routes.ts).
// Machines do not sign in: they send an API token, `Authorization: Bearer hlk_…` (docs/team.md,
// "Tokens"), which the gate admits with the token's role wherever a session is admitted.
import { createHash, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { AccountError, bearerOf, createRateLimit, emailProblem, PASSWORD_MIN_LENGTH, type Accounts, type AccountView, type Oidc, type Tokens, type TokenView } from '../accounts'
import { joinPage, linkGonePage, OIDC_START_PATH, PAGE_CSS, providerProblemPage, signInPage } from './account-pages'
import { createOidcRoutes, OIDC_CALLBACK_PATH, OIDC_ROUTES } from './oidc-routes'
import { tokenMatches } from './guard'
import type { AccountEvent, SignInMethod } from './audit-record'

export const SESSION_COOKIE = 'hookloop_session'
const CSRF_COOKIE = 'hookloop_csrf'
/** The header a signed-in page's script sends its CSRF token in (sign out). */
export const CSRF_HEADER = 'x-hookloop-csrf'
/** Sign-in attempts a minute: from one address, and for one email. */
export const SIGN_IN_PER_ADDRESS = 10
export const SIGN_IN_PER_EMAIL = 5
const FORM_LIMIT = 16 * 1024

/** The routes answered here, as `METHOD path` (route-decisions.ts gives each its authorisation). */
export const ACCOUNT_ROUTES = ['GET /signin', 'POST /signin', 'POST /signout', 'GET /join', 'POST /join', 'GET /account/me', 'GET /account/page.css', ...OIDC_ROUTES] as const

export interface AccountGateOptions {
  accounts: Accounts
  /** The API tokens machines are admitted by; without them a bearer header admits nobody. */
  tokens?: Tokens
  /** Believe X-Forwarded-Proto and X-Forwarded-For (a reverse proxy in front). */
  trustProxy: boolean
  /** Whether a request's Origin is one of ours. */
  originAllowed: (origin: string | undefined) => boolean
  /** The security headers of a page that posts forms (its CSP allows `form-action 'self'`). */
  pageHeaders: () => Record<string, string>
  now?: () => number
  /** The account events that are not commands (a member joining, the first admin, a sign-out) go to the audit. */
  audit?: (event: AccountEvent) => Promise<void>
  /** The team's identity provider people may sign in through, and the address its callback is registered at (our origin). */
  oidc?: { oidc: Oidc; origin: () => string }
  log?: (line: string) => void
}

/**
 * Who a request comes from: a person signed in (a session, whose secret switches its workspace),
 * or a machine (an API token). Either acts in one workspace with its role there.
 */
export type Principal = { account: AccountView; token?: undefined; session?: string } | { account: null; token: TokenView; session?: undefined }

export interface AccountGate {
  /** Answers the account routes; true when the request was one of them. */
  route(req: IncomingMessage, res: ServerResponse): boolean
  /** The signed-in account behind the request's session cookie (the app's page is for people only). */
  account(req: IncomingMessage): Promise<AccountView | null>
  /**
   * Whoever the request comes from, or null. A request with an Authorization header is judged by
   * it alone (a bearer API token; a wrong, unknown or revoked one admits nobody, whatever cookie
   * comes with it); without one, by its session cookie. `use: false`: a check again of what admitted
   * a socket, not a use of it (a token's last use is not written).
   */
  caller(req: IncomingMessage, options?: { use?: boolean }): Promise<Principal | null>
  /**
   * Of requests a session admitted (sockets' upgrades), each with the workspace its socket looks
   * at, those whose session no longer signs anyone in there: ended, expired, its account disabled
   * or no longer a member there, or the session moved to another workspace, here or by another
   * process on the same store. One read for them all.
   */
  signedOut(requests: readonly { request: IncomingMessage; workspace?: string }[]): Promise<IncomingMessage[]>
  /** After a sign-out, a change of an account or a revoked token: the sockets it admitted are checked again. */
  onChange(listener: () => void): () => void
}

/** Whether the request offers an API token (an Authorization header) rather than a session. */
export const offersToken = (req: IncomingMessage): boolean => bearerOf(req.headers.authorization) !== null

/** How a refusal names who was refused: "vic@example.com" or 'the token "CI"'. */
export const principalName = (principal: Principal): string => (principal.token ? `the token "${principal.token.name}"` : principal.account.email)

/** The role a principal acts with: in its workspace. */
export const principalRole = (principal: Principal): AccountView['role'] => (principal.token ? principal.token.role : principal.account.role)

/** The workspace a principal acts in: its session's, or its token's. */
export const principalWorkspace = (principal: Principal): string => (principal.token ? principal.token.workspaceId : principal.account.workspaceId)

export function cookiesOf(req: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0) cookies.set(part.slice(0, at).trim(), decodeURIComponent(part.slice(at + 1).trim()))
  }
  return cookies
}

/** The CSRF token of a session: derived from its secret, so nothing more is stored. */
export const sessionCsrf = (secret: string): string => createHash('sha256').update(`csrf:${secret}`).digest('base64url')

export function createAccountGate(options: AccountGateOptions): AccountGate {
  const { accounts } = options
  const now = options.now ?? Date.now
  // The event happened: a failure to record it is not the person's, and does not undo it.
  const record = (event: AccountEvent): Promise<void> => options.audit?.(event).catch(() => undefined) ?? Promise.resolve()
  const byAddress = createRateLimit(SIGN_IN_PER_ADDRESS)
  const byEmail = createRateLimit(SIGN_IN_PER_EMAIL)
  // Until when each address's rate-limited refusal is recorded already: once per wait, not once
  // per attempt, so whoever hammers the sign-in cannot flood the audit.
  const limitRecordedUntil = new Map<string, number>()

  const secure = (req: IncomingMessage): boolean =>
    Boolean((req.socket as { encrypted?: boolean }).encrypted) || (options.trustProxy && String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() === 'https')
  const addressOf = (req: IncomingMessage): string => {
    const forwarded = options.trustProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',')[0]?.trim() : ''
    return forwarded || req.socket.remoteAddress || 'unknown'
  }
  /**
   * Counts a sign-in attempt from the request's address (and for the email, when given): null, or
   * the seconds to wait. A wait is a refusal for the audit, recorded once per address per wait.
   */
  async function attempt(req: IncomingMessage, email: string | null, method: SignInMethod): Promise<number | null> {
    const at = now()
    const address = addressOf(req)
    const wait = byAddress.take([address], at) ?? (email === null ? null : byEmail.take([email.toLowerCase()], at))
    if (wait === null || (limitRecordedUntil.get(address) ?? 0) > at) return wait
    if (limitRecordedUntil.size > 10_000) for (const [key, until] of limitRecordedUntil) if (until <= at) limitRecordedUntil.delete(key)
    limitRecordedUntil.set(address, at + wait * 1000)
    await record({ kind: 'account.signInRefused', email, reason: 'rate_limited', method, ...(method === 'oidc' && provider ? { provider: provider.oidc.name } : {}), address })
    return wait
  }
  const cookie = (req: IncomingMessage, name: string, value: string, maxAgeS: number, scope = { sameSite: 'Strict', path: '/' }): string =>
    `${name}=${value}; Path=${scope.path}; HttpOnly; SameSite=${scope.sameSite}; Max-Age=${maxAgeS}${secure(req) ? '; Secure' : ''}`

  function html(res: ServerResponse, status: number, body: string, extra: Record<string, string | string[]> = {}): void {
    // same-origin, not no-referrer: under no-referrer a browser posts the form with `Origin: null`,
    // which the Origin check refuses. The join page's link never leaves our origin either way.
    res.writeHead(status, { ...options.pageHeaders(), 'referrer-policy': 'same-origin', 'content-type': 'text/html; charset=utf-8', ...extra }).end(body)
  }
  function redirect(res: ServerResponse, to: string, setCookie: string[] = []): void {
    res.writeHead(303, { ...options.pageHeaders(), location: to, ...(setCookie.length ? { 'set-cookie': setCookie } : {}) }).end()
  }
  function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
    res.writeHead(status, { ...options.pageHeaders(), 'content-type': 'text/plain; charset=utf-8', ...extra }).end(`${text}\n`)
  }

  // The pre-session CSRF value: the cookie's, or a new one set with the page.
  function preSession(req: IncomingMessage): { csrf: string; setCookie: string[] } {
    const existing = cookiesOf(req).get(CSRF_COOKIE)
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { csrf: existing, setCookie: [] }
    const csrf = randomBytes(32).toString('base64url')
    return { csrf, setCookie: [cookie(req, CSRF_COOKIE, csrf, 3600)] }
  }

  async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return null
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > FORM_LIMIT) return null
      chunks.push(chunk as Buffer)
    }
    return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
  }

  // A form post from a page of ours: its Origin (when the browser sends one) and the CSRF token of the pre-session cookie.
  function formTrusted(req: IncomingMessage, form: URLSearchParams): boolean {
    const origin = req.headers.origin
    if (origin !== undefined && !options.originAllowed(origin)) return false
    const expected = cookiesOf(req).get(CSRF_COOKIE)
    return expected !== undefined && tokenMatches(expected, form.get('csrf'))
  }

  const newSession = (req: IncomingMessage, secret: string): string[] => [cookie(req, SESSION_COOKIE, secret, 12 * 60 * 60), cookie(req, CSRF_COOKIE, '', 0)]

  const provider = options.oidc
  const oidcRoutes = provider
    ? createOidcRoutes({
        accounts,
        oidc: provider.oidc,
        redirectUri: () => `${provider.origin()}${OIDC_CALLBACK_PATH}`,
        html,
        redirect,
        cookie,
        cookies: cookiesOf,
        newSession,
        attempt: (req) => attempt(req, null, 'oidc'),
        address: addressOf,
        record,
        log: options.log ?? (() => undefined),
      })
    : null
  const providerName = provider?.oidc.name

  async function signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req)
    if (!form) return plain(res, 400, 'a sign-in is a form post (application/x-www-form-urlencoded, at most 16 KB)')
    const { csrf } = preSession(req)
    if (!formTrusted(req, form)) return html(res, 403, signInPage(csrf, 'This form expired: sign in again.', '', providerName))
    const given = form.get('email') ?? ''
    // No account has such an address: it is refused as bad input (400, naming the field), before
    // it reaches the store (PostgreSQL refuses a NUL in text) or the audit.
    const badEmail = emailProblem(given)
    if (badEmail) return html(res, 400, signInPage(csrf, `${badEmail[0]?.toUpperCase()}${badEmail.slice(1)}.`, '', providerName))
    const email = given.trim()
    const wait = await attempt(req, email, 'password')
    if (wait !== null) {
      return html(res, 429, signInPage(csrf, `Too many sign-in attempts: try again in ${wait} s.`, email, providerName), { 'retry-after': String(wait) })
    }
    const signed = await accounts.signIn(email, form.get('password') ?? '')
    const address = addressOf(req)
    if ('refused' in signed) {
      await record({ kind: 'account.signInRefused', email, reason: signed.refused, method: 'password', address })
      // The person is not told which it was: an address with no account reads as a wrong password.
      return html(res, 401, signInPage(csrf, 'Wrong email or password.', email, providerName))
    }
    await record({ kind: 'account.signIn', account: signed.account, via: 'session', method: 'password', address })
    redirect(res, '/', newSession(req, signed.secret))
  }

  async function signOut(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const secret = cookiesOf(req).get(SESSION_COOKIE)
    const origin = req.headers.origin
    if (origin !== undefined && !options.originAllowed(origin)) return plain(res, 403, 'foreign Origin')
    const given = String(req.headers[CSRF_HEADER] ?? '') || (await readForm(req))?.get('csrf') || ''
    if (!secret || !tokenMatches(sessionCsrf(secret), given)) return plain(res, 403, `sign out needs the session's CSRF token (${CSRF_HEADER})`)
    const leaving = await accounts.sessionOf(secret)
    await accounts.signOut(secret)
    if (leaving) await record({ kind: 'account.signOut', account: leaving, via: 'session' })
    res.writeHead(204, { ...options.pageHeaders(), 'set-cookie': cookie(req, SESSION_COOKIE, '', 0) }).end()
  }

  async function joinForm(req: IncomingMessage, res: ServerResponse, link: string): Promise<void> {
    const role = link ? await accounts.linkRole(link) : null
    if (!role) return html(res, 404, linkGonePage())
    const { csrf, setCookie } = preSession(req)
    html(res, 200, joinPage(csrf, link, role, (await accounts.count()) === 0, PASSWORD_MIN_LENGTH), setCookie.length ? { 'set-cookie': setCookie } : {})
  }

  async function join(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req)
    if (!form) return plain(res, 400, 'joining is a form post (application/x-www-form-urlencoded, at most 16 KB)')
    const link = form.get('link') ?? ''
    const role = await accounts.linkRole(link)
    if (!role) return html(res, 404, linkGonePage())
    const { csrf } = preSession(req)
    const first = (await accounts.count()) === 0
    if (!formTrusted(req, form)) return html(res, 403, joinPage(csrf, link, role, first, PASSWORD_MIN_LENGTH, 'This form expired: try again.'))
    const person = { email: form.get('email') ?? '', name: form.get('name') ?? '', password: form.get('password') ?? '' }
    try {
      const joined = await accounts.redeem(link, person)
      await record({ kind: first ? 'account.firstAdmin' : 'account.join', account: joined, via: 'session' })
    } catch (error) {
      if (error instanceof AccountError) return html(res, 400, joinPage(csrf, link, role, first, PASSWORD_MIN_LENGTH, `${error.message[0]?.toUpperCase()}${error.message.slice(1)}.`))
      throw error
    }
    const signed = await accounts.signIn(person.email, person.password)
    if ('refused' in signed) return redirect(res, '/signin')
    redirect(res, '/', newSession(req, signed.secret))
  }

  async function me(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const secret = cookiesOf(req).get(SESSION_COOKIE)
    const account = await accounts.sessionOf(secret)
    if (!account || !secret) return plain(res, 401, 'not signed in')
    res.writeHead(200, { ...options.pageHeaders(), 'content-type': 'application/json' }).end(
      JSON.stringify({ email: account.email, name: account.name, role: account.role, workspaceId: account.workspaceId, csrf: sessionCsrf(secret) }),
    )
  }

  async function answer(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
    const method = req.method ?? 'GET'
    if (path === '/account/page.css') {
      res.writeHead(200, { ...options.pageHeaders(), 'content-type': 'text/css; charset=utf-8' }).end(PAGE_CSS)
      return
    }
    if (path === '/account/me') return me(req, res)
    if (path === '/signin' && method === 'GET') {
      if (await accounts.sessionOf(cookiesOf(req).get(SESSION_COOKIE))) return redirect(res, '/')
      const { csrf, setCookie } = preSession(req)
      return html(res, 200, signInPage(csrf, undefined, '', providerName), setCookie.length ? { 'set-cookie': setCookie } : {})
    }
    if (path === OIDC_START_PATH || path === OIDC_CALLBACK_PATH) {
      if (!oidcRoutes) return html(res, 404, providerProblemPage('Not signed in', 'This Hookloop has no identity provider to sign in through: sign in with your Hookloop password.'))
      if (method !== 'GET') return plain(res, 405, `${method} is not answered on ${path}`)
      return path === OIDC_START_PATH ? oidcRoutes.start(req, res) : oidcRoutes.callback(req, res, new URL(req.url ?? '/', 'http://localhost'))
    }
    if (path === '/signin' && method === 'POST') return signIn(req, res)
    if (path === '/signout' && method === 'POST') return signOut(req, res)
    if (path === '/join' && method === 'GET') return joinForm(req, res, query.get('link') ?? '')
    if (path === '/join' && method === 'POST') return join(req, res)
    plain(res, 405, `${method} is not answered on ${path}`)
  }

  const ROUTES = new Set(ACCOUNT_ROUTES.map((route) => route.split(' ')[1]))
  return {
    route(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost')
      if (!ROUTES.has(url.pathname)) return false
      answer(req, res, url.pathname, url.searchParams).catch((error: unknown) => {
        if (!res.headersSent) plain(res, 500, `the account route failed: ${error instanceof Error ? error.message : String(error)}`)
        else res.destroy()
      })
      return true
    },
    account: (req) => accounts.sessionOf(cookiesOf(req).get(SESSION_COOKIE)),
    async caller(req, check) {
      const bearer = bearerOf(req.headers.authorization)
      if (bearer !== null) {
        const token = options.tokens ? await options.tokens.verify(bearer, check) : null
        return token ? { account: null, token } : null
      }
      const session = cookiesOf(req).get(SESSION_COOKIE)
      const account = await accounts.sessionOf(session)
      return account && session ? { account, session } : null
    },
    async signedOut(requests) {
      const secretOf = (req: IncomingMessage): string => cookiesOf(req).get(SESSION_COOKIE) ?? ''
      const live = await accounts.liveSessions([...new Set(requests.map(({ request }) => secretOf(request)).filter(Boolean))])
      return requests
        .filter(({ request, workspace }) => {
          const looksAt = live.get(secretOf(request))
          return looksAt === undefined || (workspace !== undefined && looksAt !== workspace)
        })
        .map(({ request }) => request)
    },
    onChange(listener) {
      const offAccounts = accounts.onChange(listener)
      const offTokens = options.tokens?.onChange(listener)
      return () => {
        offAccounts()
        offTokens?.()
      }
    },
  }
}
