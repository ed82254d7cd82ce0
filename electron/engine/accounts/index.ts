export { AccountError, createAccounts, LINK_TTL_MS, SESSION_IDLE_MS, type AccountView, type Accounts, type NewPerson } from './accounts'
export { PASSWORD_MIN_LENGTH, passwordProblem } from './passwords'
export { createRateLimit, type RateLimit } from './rate-limit'
