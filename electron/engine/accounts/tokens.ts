// API tokens: what a machine (CI, a script, a coding agent) signs in to a served Hookloop with,
// as `Authorization: Bearer hlk_…` (docs/team.md, "Tokens"). Each acts in one workspace with a
// role there, as a member does.
// The secret exists only in create's answer; the store keeps its SHA-256 (secrets.ts) and a few of
// its first characters for people to tell tokens apart.
//
// A check is on the path of every command a token sends, so a verdict is kept in this process
// for at most TOKEN_CACHE_MS: a token revoked by another process on the same store (a second
// server, `hookloop token revoke`) is refused by this one within that time. A revocation made
// here is seen here at once. The last use is written at most once a minute per token.
import { randomBytes } from 'node:crypto'
import type { Role, TokenView } from '../../../shared/contract'
import { createTokenStore, type SqlEngine, type TokenRow, type TokenStore } from '../store'
import { CONTROL_CHARACTER } from './accounts'
import { newSecret, secretHash } from './secrets'

/** What every token's secret starts with: a scanner (or a person) knows one when it sees one. */
export const TOKEN_SECRET_PREFIX = 'hlk_'
/** The longest a process believes a verdict it read from the store. */
export const TOKEN_CACHE_MS = 1_000
/** A token's last use is written at most this often. */
export const TOKEN_USE_EVERY_MS = 60_000
/** Characters of the secret kept for display, `hlk_` included: 36 bits of its 256 shown. */
export const TOKEN_PREFIX_LENGTH = TOKEN_SECRET_PREFIX.length + 6
export const TOKEN_NAME_MAX = 100

// hlk_ and 32 random bytes in base64url: 43 characters.
const SECRET_SHAPE = /^hlk_[A-Za-z0-9_-]{43}$/
// Verdicts kept at most; past it, the expired ones go (many distinct tokens cannot grow it without bound).
const CACHE_LIMIT = 10_000

/** A token as people and the command checks see it (the contract's): never its secret or the secret's hash. */
export type { TokenView }

export class TokenError extends Error {
  constructor(
    readonly code: 'bad_name' | 'not_found',
    message: string,
  ) {
    super(message)
  }
}

export interface NewTokenInput {
  name: string
  role: Role
  /** The workspace it acts in. */
  workspaceId: string
  /** The admin making it; null on the server's machine (`hookloop token create`). */
  by: string | null
}

export interface Tokens {
  /** A new token: its view and its secret, which exists only in this answer. */
  create(input: NewTokenInput): Promise<{ token: TokenView; secret: string }>
  /** Every token (of one workspace, when given), revoked ones too, newest first. */
  list(workspaceId?: string): Promise<TokenView[]>
  /**
   * Revokes the token; a token revoked already is answered as it is. Given a workspace, a token of
   * another one is not_found, as one that does not exist.
   */
  revoke(id: string, workspaceId?: string): Promise<TokenView>
  /**
   * The token a bearer secret stands for, or null: wrong, unknown and revoked alike (whoever asks
   * learns nothing more). Kept in this process for at most TOKEN_CACHE_MS. A check that is not a
   * use (a server looking again at a quiet socket's token) says `use: false`: no last use is written.
   */
  verify(secret: string | null | undefined, options?: { use?: boolean }): Promise<TokenView | null>
  /** Called after a token is revoked here: whoever holds its sockets checks them again. */
  onChange(listener: () => void): () => void
}

export interface TokensOptions {
  engine: () => SqlEngine
  now?: () => number
  /** A failed write of a token's last use (the check itself answered). Never given a secret. */
  log?: (line: string) => void
}

export const tokenViewOf = (row: TokenRow): TokenView => ({
  id: row.id,
  name: row.name,
  role: row.role,
  workspaceId: row.workspaceId,
  prefix: row.prefix,
  createdBy: row.createdBy,
  createdByEmail: row.createdByEmail,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
})

/** A token's name: trimmed, 1 to TOKEN_NAME_MAX characters, no control characters. Why not, or null. */
export function tokenNameProblem(name: string): string | null {
  const trimmed = name.trim()
  if (trimmed.length === 0) return 'a token needs a name (what uses it: "GitHub Actions", "nightly replay")'
  if (trimmed.length > TOKEN_NAME_MAX) return `a token's name is at most ${TOKEN_NAME_MAX} characters`
  if (CONTROL_CHARACTER.test(trimmed)) return "a token's name has no control characters"
  return null
}

/**
 * The secret of an `Authorization: Bearer …` header, or null when there is none. A header that is
 * there but not a bearer (Basic …) is the empty string: the request asked to be admitted by it,
 * and is refused, not taken for one without credentials.
 */
export function bearerOf(authorization: string | string[] | undefined): string | null {
  const value = Array.isArray(authorization) ? authorization[0] : authorization
  if (value === undefined) return null
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(value)
  return match?.[1] ?? ''
}

/** Whether a value has the shape of a token's secret (hlk_ and 43 base64url characters). */
export const looksLikeTokenSecret = (value: string): boolean => SECRET_SHAPE.test(value)

export function createTokens(options: TokensOptions): Tokens {
  const now = options.now ?? Date.now
  const store = (): TokenStore => createTokenStore(options.engine())
  const listeners = new Set<() => void>()
  // The secret's hash → the token it stood for and when that was read from the store.
  const cache = new Map<string, { token: TokenView; readAt: number }>()
  // Checks under way, so many requests with one token at once read the store once.
  const reading = new Map<string, Promise<TokenView | null>>()
  // When this process last wrote (or saw) each token's use.
  const usedAt = new Map<string, number>()
  // Bumped by each revocation here: a read begun before it does not put back what it removed.
  let revocations = 0

  function used(token: TokenView, at: number): void {
    const last = usedAt.get(token.id) ?? token.lastUsedAt ?? -Infinity
    if (at - last < TOKEN_USE_EVERY_MS) return
    usedAt.set(token.id, at)
    // Not awaited: the check answers without waiting for the write. The store writes it only when
    // no process wrote one within the minute.
    store()
      .touch(token.id, at, TOKEN_USE_EVERY_MS)
      .catch((error: unknown) => options.log?.(`hookloop: the last use of token ${token.id} was not written: ${error instanceof Error ? error.message : String(error)}`))
  }

  async function read(hash: string): Promise<TokenView | null> {
    const before = revocations
    // The verdict is as old as the read's start: it is kept TOKEN_CACHE_MS from then.
    const at = now()
    const row = await store().byHash(hash)
    if (!row || row.revokedAt !== null) {
      cache.delete(hash)
      return null
    }
    if (cache.size >= CACHE_LIMIT) for (const [key, entry] of cache) if (at - entry.readAt >= TOKEN_CACHE_MS) cache.delete(key)
    const token = tokenViewOf(row)
    if (before !== revocations) return read(hash)
    cache.set(hash, { token, readAt: at })
    return token
  }

  return {
    async create({ name, role, workspaceId, by }) {
      const problem = tokenNameProblem(name)
      if (problem) throw new TokenError('bad_name', problem)
      const secret = `${TOKEN_SECRET_PREFIX}${newSecret()}`
      const row = {
        id: `tok_${randomBytes(8).toString('hex')}`,
        name: name.trim(),
        role,
        workspaceId,
        secretHash: secretHash(secret),
        prefix: secret.slice(0, TOKEN_PREFIX_LENGTH),
        createdBy: by,
        createdAt: now(),
      }
      await store().insert(row)
      const made = await store().byId(row.id)
      return { token: made ? tokenViewOf(made) : tokenViewOf({ ...row, createdByEmail: null, lastUsedAt: null, revokedAt: null }), secret }
    },
    async list(workspaceId) {
      return (await store().list(workspaceId)).map(tokenViewOf)
    },
    async revoke(id, workspaceId) {
      const tokens = store()
      const before = await tokens.byId(id)
      if (!before || (workspaceId !== undefined && before.workspaceId !== workspaceId)) throw new TokenError('not_found', `no token ${id}`)
      await tokens.revoke(id, now())
      revocations++
      const row = await tokens.byId(id)
      if (!row) throw new TokenError('not_found', `no token ${id}`)
      for (const [hash, entry] of cache) if (entry.token.id === id) cache.delete(hash)
      listeners.forEach((listener) => listener())
      return tokenViewOf(row)
    },
    async verify(secret, options) {
      if (typeof secret !== 'string' || !SECRET_SHAPE.test(secret)) return null
      const hash = secretHash(secret)
      const at = now()
      const cached = cache.get(hash)
      let token: TokenView | null
      if (cached && at - cached.readAt < TOKEN_CACHE_MS) token = cached.token
      else {
        let pending = reading.get(hash)
        if (!pending) {
          pending = read(hash).finally(() => reading.delete(hash))
          reading.set(hash, pending)
        }
        token = await pending
      }
      if (token && options?.use !== false) used(token, at)
      return token
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
