import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import type { LookupFunction } from 'node:net'

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family: number) => void

/**
 * DNS lookup used for every connection the tunnel makes. Names under `.localhost` resolve to
 * 127.0.0.1 (RFC 6761, as browsers do) so a self-hosted tunnel server on this machine, which
 * hands out URLs like http://abcd.localhost:3000, works without editing /etc/hosts.
 */
export const tunnelLookup: LookupFunction = (hostname, options, callback) => {
  const name = hostname.toLowerCase()
  if (name === 'localhost' || name.endsWith('.localhost')) {
    // net.connect with autoSelectFamily asks for every address; http.request asks for one.
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }])
    else callback(null, '127.0.0.1', 4)
    return
  }
  dnsLookup(hostname, options as LookupOptions, callback as LookupCallback)
}
