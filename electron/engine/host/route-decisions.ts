// Who may reach each route of the control server when a served Hookloop has accounts (docs/team.md,
// "Accounts"), declared in one table beside the routes each module answers. Commands on the
// WebSocket have theirs in shared/contract/command-roles.ts. `Record<ControlServerRoute, …>`: a
// route added to a module does not compile until it is given a decision here, and
// test/integration/host/authorisation-suite.test.ts drives every route by its decision. The
// receiver's port is not here: its `/h/…` endpoints and the polling feed are for providers and
// consumers, open by design (SECURITY.md, "What is public").
import type { Role } from '../../../shared/contract'
import type { ACCOUNT_ROUTES } from './account-routes'
import type { BODY_ROUTES } from './body-routes'
import type { CONTROL_ROUTES } from './control-server'
import type { PROBE_PATHS } from './probe-routes'

export type ControlServerRoute =
  | (typeof ACCOUNT_ROUTES)[number]
  | (typeof BODY_ROUTES)[number]
  | (typeof CONTROL_ROUTES)[number]
  | `GET ${(typeof PROBE_PATHS)[number]}`

export type RouteDecision =
  /** Anyone, with or without credentials: it says nothing a stranger may not know. */
  | { kind: 'open' }
  /** Anyone may ask; a form post needs the pre-session CSRF cookie's token and our Origin. */
  | { kind: 'sign-in' }
  /**
   * Signing in through the team's identity provider (oidc-routes.ts): anyone may start; the callback
   * admits only the flow this browser started (its sealed cookie and state) and gives a session only
   * to the member the provider vouches for by a verified address. Without a provider configured: 404.
   */
  | { kind: 'identity-provider' }
  /** The caller's own session (its cookie); a post also the session's CSRF token. Tokens are not sessions. */
  | { kind: 'own-session' }
  /** The app's page: a signed-in session, or a redirect to /signin (never data). */
  | { kind: 'page' }
  /** A session or an API token whose role is at least `role`. */
  | { kind: 'role'; role: Role }
  /** The WebSocket: a session or any live token opens it; each command then needs its role (COMMAND_ROLES). */
  | { kind: 'commands' }

export const ROUTE_DECISIONS: Record<ControlServerRoute, RouteDecision> = {
  // Probes: states and counts only; `serve --metrics-token` puts /metrics behind a bearer of its own.
  'GET /livez': { kind: 'open' },
  'GET /readyz': { kind: 'open' },
  'GET /metrics': { kind: 'open' },
  'GET /signin': { kind: 'sign-in' },
  'POST /signin': { kind: 'sign-in' },
  'GET /join': { kind: 'sign-in' },
  'POST /join': { kind: 'sign-in' },
  'GET /auth/oidc/start': { kind: 'identity-provider' },
  'GET /auth/oidc/callback': { kind: 'identity-provider' },
  // The sign-in pages' stylesheet: the same for everyone.
  'GET /account/page.css': { kind: 'open' },
  'GET /account/me': { kind: 'own-session' },
  'POST /signout': { kind: 'own-session' },
  'GET /bodies/requests/:id': { kind: 'role', role: 'viewer' },
  'POST /bodies/uploads': { kind: 'role', role: 'editor' },
  'GET /control': { kind: 'commands' },
  'GET /': { kind: 'page' },
  'GET /index.html': { kind: 'page' },
  // The built renderer's scripts and styles: the same for everyone, no data in them.
  'GET /*': { kind: 'open' },
}
