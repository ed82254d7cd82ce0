// The public tunnel on demand: starting or stopping it rebuilds the engine on the same data.
import { subdomainProblem } from '../tunnel'
import type { CommandHandlers } from './control-server'
import { HostError } from './host-error'

export interface TunnelHandlersContext {
  /** Rebuilds the engine with a tunnel through `host`, or without one (null). */
  setTunnel(tunnel: { host: string; subdomain?: string } | null): Promise<void>
  tunnelView(): ReturnType<CommandHandlers['tunnel.stop']>
}

export function createTunnelHandlers(ctx: TunnelHandlersContext) {
  return {
    'tunnel.start': async (req) => {
      // The tunnel server's own rule for a subdomain is stricter than the contract's slug rule.
      const problem = req.subdomain === undefined ? undefined : subdomainProblem(req.subdomain)
      if (problem) throw new HostError('bad_request', `tunnel.start: subdomain: ${problem}`)
      await ctx.setTunnel({ host: req.host, ...(req.subdomain ? { subdomain: req.subdomain } : {}) })
      return ctx.tunnelView()
    },
    'tunnel.stop': async () => {
      await ctx.setTunnel(null)
      return ctx.tunnelView()
    },
  } satisfies Partial<CommandHandlers>
}
