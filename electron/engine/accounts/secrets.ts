// The secrets the accounts hand out (a session's cookie value, a one-time link) and the hashes
// the store keeps of them: a table read by someone else admits nobody. Passwords are hashed
// with Argon2id (passwords.ts); these values are 32 random bytes, for which one SHA-256 suffices.
import { createHash, randomBytes, randomUUID } from 'node:crypto'

export const newSecret = (): string => randomBytes(32).toString('base64url')

export const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex')

export const newAccountId = (): string => randomUUID()

/** A new workspace's id (`default` is the one every store has). */
export const newWorkspaceId = (): string => `ws_${randomBytes(8).toString('hex')}`
