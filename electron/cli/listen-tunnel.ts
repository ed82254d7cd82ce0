// `hookloop listen --tunnel`: the public tunnel in front of the listen receiver. Parses the tunnel
// flags, starts the tunnel manager, and prints the public endpoint URLs when the tunnel is online
// and one line per state change or notice after that.
import { describeTunnelNotice, describeTunnelState } from '../../shared/tunnel'
import { createTunnelManager, type TunnelAcceptor, type TunnelManager, type TunnelManagerOptions } from '../engine/tunnel'
import type { OptionSpecs } from './command-args'
import { UsageError } from './usage-error'

export const TUNNEL_OPTIONS = {
  tunnel: { type: 'boolean', help: 'open a public tunnel (localtunnel) to the receiver and print its public URLs' },
  'tunnel-host': { type: 'string', value: 'URL', help: 'with --tunnel: the localtunnel server (default https://localtunnel.me; any self-hosted one)' },
  subdomain: { type: 'string', value: 'NAME', help: 'with --tunnel: ask for this subdomain (4–63 lowercase letters, digits, inner dashes)' },
} as const satisfies OptionSpecs

// The tunnel reaches the receiver on 127.0.0.1, so the receiver must listen there.
const LOOPBACK_REACHABLE = new Set(['127.0.0.1', 'localhost', '0.0.0.0', '::'])

export type ListenTunnelSettings = Pick<TunnelManagerOptions, 'host' | 'subdomain'>

/** The tunnel's settings from the flags, or null without --tunnel; bad usage throws UsageError. */
export function tunnelSettings(values: { tunnel?: boolean; 'tunnel-host'?: string; subdomain?: string }, receiverHost: string): ListenTunnelSettings | null {
  if (!values.tunnel) {
    if (values['tunnel-host'] !== undefined) throw new UsageError('--tunnel-host needs --tunnel')
    if (values.subdomain !== undefined) throw new UsageError('--subdomain needs --tunnel')
    return null
  }
  if (!LOOPBACK_REACHABLE.has(receiverHost)) {
    throw new UsageError(`--tunnel reaches the receiver on 127.0.0.1; --host ${receiverHost} is not reachable there (use 127.0.0.1 or 0.0.0.0)`)
  }
  const settings: ListenTunnelSettings = {}
  if (values['tunnel-host'] !== undefined) settings.host = values['tunnel-host']
  if (values.subdomain !== undefined) settings.subdomain = values.subdomain
  try {
    // Validates the flags now, so a bad one is a usage error before anything starts.
    createTunnelManager({ ...settings, localPort: 1 })
  } catch (error) {
    throw new UsageError(`--tunnel: ${error instanceof Error ? error.message : String(error)}`)
  }
  return settings
}

/**
 * Starts the tunnel to the receiver (its sockets handed to `accept`, the receiver in this
 * process); prints the public endpoint URLs whenever the URL is new.
 */
export function startListenTunnel(
  receiver: { port: number; accept: TunnelAcceptor },
  settings: ListenTunnelSettings,
  endpointPaths: () => string[],
  write: (line: string) => void,
): TunnelManager {
  const manager = createTunnelManager({ ...settings, localPort: receiver.port, accept: receiver.accept })
  let printedUrl: string | undefined
  manager.on('state', (state) => {
    write(`${new Date().toISOString()}  ${describeTunnelState(state)}`)
    if (state.kind === 'online' && state.url !== printedUrl) {
      printedUrl = state.url
      write('Public endpoints:')
      for (const path of endpointPaths()) write(`  ${state.url}${path}`)
    }
  })
  manager.on('notice', (notice) => write(`${new Date().toISOString()}  tunnel: ${describeTunnelNotice(notice)}`))
  manager.start()
  return manager
}
