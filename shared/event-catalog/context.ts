import type { FixtureContext } from './types'

// Ids and times for one send. Random bytes from Web Crypto, which both Node and the renderer have.

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

function randomFrom(alphabet: string, length: number): string {
  const bytes = new Uint8Array(length)
  globalThis.crypto.getRandomValues(bytes)
  let out = ''
  for (const b of bytes) out += alphabet.charAt(b % alphabet.length)
  return out
}

export function fixtureContext(now: number, apiVersion?: string): FixtureContext {
  return {
    apiVersion,
    id: (prefix, length = 24) => `${prefix}${randomFrom(ALNUM, length)}`,
    uuid: () => globalThis.crypto.randomUUID(),
    digits: (n) => `${randomFrom('123456789', 1)}${randomFrom('0123456789', Math.max(0, n - 1))}`,
    now,
    iso: (offsetMs = 0) => new Date(now + offsetMs).toISOString(),
    unix: (offsetMs = 0) => Math.floor((now + offsetMs) / 1000),
  }
}
