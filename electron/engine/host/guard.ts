// The control interface answers only on loopback, only to the page we served: a request whose
// Host is not ours (DNS rebinding), a WebSocket whose Origin is foreign (another site in the same
// browser), or one without the per-run token is refused before anything else happens.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 32 random bytes, URL-safe: the per-run secret that admits a UI. */
export function createToken(): string {
  return randomBytes(32).toString('base64url')
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false
  // Hash both sides so the comparison is constant-time whatever the lengths.
  const a = createHash('sha256').update(expected).digest()
  const b = createHash('sha256').update(given).digest()
  return timingSafeEqual(a, b)
}

// [::1]: `serve --host ::1` listens on IPv6 loopback, and its page is reached by that name.
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`)
}

export function hostAllowed(port: number, host: string | undefined): boolean {
  return typeof host === 'string' && allowedHosts(port).includes(host.toLowerCase())
}

export function originAllowed(port: number, origin: string | undefined): boolean {
  return typeof origin === 'string' && allowedOrigins(port).includes(origin.toLowerCase())
}

/** The Content-Security-Policy of every page we serve: our own scripts, and our socket only. */
export function contentSecurityPolicy(port: number): string {
  const sockets = allowedHosts(port)
    .map((host) => `ws://${host}`)
    .join(' ')
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${sockets}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ')
}
