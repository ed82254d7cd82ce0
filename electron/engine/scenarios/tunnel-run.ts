// A scenario through the tunnel: the engine opens a public tunnel to the run's receiver (the
// file's `tunnel`, its host maybe replaced at run time), and the run waits until it is online
// before the first event, so every loop-mode attempt goes sender → tunnel server → receiver the
// way a provider's does. A tunnel that never comes online fails the run with its last state.
import type { LookupFunction } from 'node:net'
import type { Scenario, ReportTunnel } from '../../../shared/scenario'
import { describeTunnelState, type TunnelState } from '../../../shared/tunnel'
import type { EngineOptions } from '../engine'
import type { TunnelManager } from '../tunnel'
import { DEFAULT_TUNNEL_HOST } from '../tunnel'

/** Run-time choices about the tunnel, beside what the file says. */
export interface RunTunnelOptions {
  /** Replaces the file's `tunnel.host` (hookloop run --tunnel-host, HOOKLOOP_TUNNEL_HOST). */
  host?: string
  /** DNS for the tunnel's and the sender's connections (a test server's names); names under .localhost are loopback anyway. */
  lookup?: LookupFunction
}

/** The engine's tunnel options for this scenario; undefined when it names no tunnel. */
export function engineTunnel(scenario: Scenario, options: RunTunnelOptions = {}): EngineOptions['tunnel'] | undefined {
  const tunnel = scenario.tunnel
  if (tunnel === undefined) return undefined
  return {
    host: options.host ?? tunnel.host ?? DEFAULT_TUNNEL_HOST,
    ...(tunnel.subdomain === undefined ? {} : { subdomain: tunnel.subdomain }),
    ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
  }
}

/**
 * Resolves with the public URL once the tunnel is online (or degraded: requests get through);
 * rejects after `withinMs` of real time, or when the server refuses for good, naming the state.
 */
export function tunnelOnline(manager: TunnelManager, host: string, withinMs: number, signal?: AbortSignal): Promise<Omit<ReportTunnel, 'bypassed_attempts'>> {
  const reachable = (state: TunnelState): string | undefined => (state.kind === 'online' || state.kind === 'degraded' ? state.url : undefined)
  return new Promise((resolve, reject) => {
    let last: TunnelState = manager.state
    const finish = (error: Error | null, url?: string) => {
      off()
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (error) reject(error)
      else resolve({ host, url: url as string })
    }
    const onState = (state: TunnelState) => {
      last = state
      const url = reachable(state)
      if (url !== undefined) finish(null, url)
      else if (state.kind === 'offline') finish(new Error(`the tunnel at ${host} refused: ${describeTunnelState(state)}`))
    }
    const onAbort = () => finish(new Error('interrupted while the tunnel was connecting'))
    const off = manager.on('state', onState)
    // Real time: the scenario's clock may be virtual, and the tunnel server is not.
    const timer = setTimeout(() => finish(new Error(`the tunnel at ${host} was not online within ${withinMs} ms (tunnel.online_within_ms): ${describeTunnelState(last)}`)), withinMs)
    signal?.addEventListener('abort', onAbort, { once: true })
    if (signal?.aborted) onAbort()
    else onState(manager.state)
  })
}
