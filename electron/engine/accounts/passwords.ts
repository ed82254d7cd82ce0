// Passwords: checked for length, hashed with Argon2id (@node-rs/argon2's default algorithm,
// named here so a change of default cannot weaken it), verified against the stored hash.
import { hash, verify, type Options } from '@node-rs/argon2'

export const PASSWORD_MIN_LENGTH = 12
export const PASSWORD_MAX_LENGTH = 1024

// Algorithm.Argon2id; the package's enum is a const enum, which isolated modules cannot read.
const ARGON2ID = 2 as NonNullable<Options['algorithm']>

/** Why this password cannot be used, or null when it can. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `the password is too short: at least ${PASSWORD_MIN_LENGTH} characters`
  if (password.length > PASSWORD_MAX_LENGTH) return `the password is too long: at most ${PASSWORD_MAX_LENGTH} characters`
  return null
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID })
}

export async function passwordMatches(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password)
  } catch {
    return false
  }
}
