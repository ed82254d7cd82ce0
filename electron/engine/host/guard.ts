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
// `publicUrl`: the address a served Hookloop with accounts is reached by (`serve --public-url`),
// named exactly: any other name is still refused, so DNS rebinding finds no way in.
export function allowedHosts(port: number, publicUrl?: URL): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, ...(publicUrl ? [publicUrl.host.toLowerCase()] : [])]
}

export function allowedOrigins(port: number, publicUrl?: URL): string[] {
  return [...allowedHosts(port).map((host) => `http://${host}`), ...(publicUrl ? [publicUrl.origin.toLowerCase()] : [])]
}

export function hostAllowed(port: number, host: string | undefined, publicUrl?: URL): boolean {
  return typeof host === 'string' && allowedHosts(port, publicUrl).includes(host.toLowerCase())
}

export function originAllowed(port: number, origin: string | undefined, publicUrl?: URL): boolean {
  return typeof origin === 'string' && allowedOrigins(port, publicUrl).includes(origin.toLowerCase())
}

/**
 * The Content-Security-Policy of every page we serve: our own scripts, and our socket only.
 * `forms`: the sign-in pages post their forms to us; the app's pages post none.
 */
export function contentSecurityPolicy(port: number, publicUrl?: URL, forms = false): string {
  const sockets = [
    ...allowedHosts(port).map((host) => `ws://${host}`),
    ...(publicUrl ? [`${publicUrl.protocol === 'https:' ? 'wss' : 'ws'}://${publicUrl.host}`] : []),
  ].join(' ')
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${sockets}`,
    "base-uri 'none'",
    forms ? "form-action 'self'" : "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ')
}
