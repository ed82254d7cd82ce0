const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1', '0.0.0.0'])

/** True for loopback URLs: what the local receiver sees, never what a provider signed. */
export function isLocalUrl(url: string): boolean {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return false
  }
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost') || host.startsWith('127.')
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80' }

/**
 * The same URL with its default port written out, or removed when it was written out. Works on
 * the string, because the signature covers the exact text and `new URL()` would normalise it.
 */
export function defaultPortVariant(url: string): string | undefined {
  const match = /^(https?:)\/\/([^/?#]*)(.*)$/i.exec(url)
  if (!match) return undefined
  const [, protocol = '', authority = '', rest = ''] = match
  const port = DEFAULT_PORTS[protocol.toLowerCase()]
  if (!port) return undefined
  const portMatch = /^(.*?)(?::(\d+))?$/.exec(authority)
  const host = portMatch?.[1] ?? authority
  const written = portMatch?.[2]
  if (written === undefined) return `${protocol}//${host}:${port}${rest}`
  if (written === port) return `${protocol}//${host}${rest}`
  return undefined
}
