export { AccountError, CONTROL_CHARACTER, createAccounts, emailProblem, LINK_TTL_MS, SESSION_IDLE_MS, workspaceNameProblem, type AccountView, type Accounts, type NewPerson, type SignInRefusedReason } from './accounts'
export { PASSWORD_MIN_LENGTH, passwordProblem } from './passwords'
export { createRateLimit, type RateLimit } from './rate-limit'
export {
  bearerOf,
  createTokens,
  looksLikeTokenSecret,
  TOKEN_CACHE_MS,
  TOKEN_NAME_MAX,
  TOKEN_PREFIX_LENGTH,
  TOKEN_SECRET_PREFIX,
  TOKEN_USE_EVERY_MS,
  TokenError,
  tokenNameProblem,
  tokenViewOf,
  type NewTokenInput,
  type Tokens,
  type TokensOptions,
  type TokenView,
} from './tokens'
export { createOidc, OidcError, oidcSettingsProblem, type Oidc, type OidcFailure, type OidcPerson, type OidcSettings } from './oidc'
export { OIDC_FLOW_TTL_MS } from './oidc-flow'
