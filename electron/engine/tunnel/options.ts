import type { LookupFunction } from 'node:net'
import { subdomainProblem } from './assignment'
import type { TunnelAcceptor } from './handoff'
import { DEFAULT_BACKOFF, validateBackoff, type BackoffOptions } from './backoff'
import { tunnelLookup } from './lookup'

/** The public localtunnel service, as the localtunnel client uses by default. */
export const DEFAULT_TUNNEL_HOST = 'https://localtunnel.me'

export interface TunnelManagerOptions {
  /** The receiver's port on 127.0.0.1: the only thing the tunnel exposes. */
  localPort: number
  /**
   * The receiver's HTTP server, when it runs in this process (`receiver.accept`): each tunnel
   * socket is handed to it, with no relay hop. Without it, requests are relayed to localPort.
   */
  accept?: TunnelAcceptor
  /** The localtunnel server: the public service by default, or a self-hosted one. */
  host?: string
  /** Ask for this subdomain; the server may grant another (reported as `url-changed`). */
  subdomain?: string
  /** Deadline for asking for a tunnel, for each health check and for opening a socket. */
  requestTimeoutMs?: number
  backoff?: Partial<BackoffOptions>
  /** Time between health checks through the public URL; 0 turns them off. */
  healthIntervalMs?: number
  /** Consecutive failed health checks that mean the tunnel is dead. */
  healthFailuresBeforeRebuild?: number
  /** A socket count below the maximum is reported as `degraded` only if it lasts this long. */
  degradedGraceMs?: number
  /** DNS for every connection the tunnel makes (names under .localhost → 127.0.0.1 by default). */
  lookup?: LookupFunction
  /** For jitter; Math.random by default. */
  random?: () => number
}

export interface ResolvedTunnelOptions {
  localPort: number
  accept: TunnelAcceptor | undefined
  host: URL
  subdomain: string | undefined
  requestTimeoutMs: number
  backoff: BackoffOptions
  healthIntervalMs: number
  healthFailuresBeforeRebuild: number
  degradedGraceMs: number
  lookup: LookupFunction
  random: () => number
}

/** Fills in defaults and throws a clear error naming the first bad option. */
export function resolveTunnelOptions(options: TunnelManagerOptions): ResolvedTunnelOptions {
  const { localPort } = options
  if (!Number.isInteger(localPort) || localPort < 1 || localPort > 65535) {
    throw new RangeError(`tunnel localPort must be a port number (1–65535), got ${String(localPort)}`)
  }
  if (options.accept !== undefined && typeof options.accept !== 'function') throw new TypeError('tunnel accept must be a function (the receiver\'s accept), got ' + typeof options.accept)
  const hostText = options.host ?? DEFAULT_TUNNEL_HOST
  let host: URL
  try {
    host = new URL(hostText)
  } catch {
    throw new TypeError(`tunnel host must be a URL like https://localtunnel.me, got "${hostText}"`)
  }
  if (host.protocol !== 'http:' && host.protocol !== 'https:') {
    throw new TypeError(`tunnel host must be an http:// or https:// URL, got "${hostText}"`)
  }
  if (options.subdomain !== undefined) {
    const problem = subdomainProblem(options.subdomain)
    if (problem) throw new TypeError(problem)
  }
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000
  if (!Number.isFinite(requestTimeoutMs) || requestTimeoutMs < 50) throw new RangeError(`tunnel requestTimeoutMs must be ≥ 50 ms, got ${requestTimeoutMs}`)
  const healthIntervalMs = options.healthIntervalMs ?? 30_000
  if (!Number.isFinite(healthIntervalMs) || (healthIntervalMs !== 0 && healthIntervalMs < 100)) {
    throw new RangeError(`tunnel healthIntervalMs must be 0 (off) or ≥ 100 ms, got ${healthIntervalMs}`)
  }
  const healthFailuresBeforeRebuild = options.healthFailuresBeforeRebuild ?? 2
  if (!Number.isInteger(healthFailuresBeforeRebuild) || healthFailuresBeforeRebuild < 1) {
    throw new RangeError(`tunnel healthFailuresBeforeRebuild must be an integer ≥ 1, got ${healthFailuresBeforeRebuild}`)
  }
  const degradedGraceMs = options.degradedGraceMs ?? 2000
  if (!Number.isFinite(degradedGraceMs) || degradedGraceMs < 0) throw new RangeError(`tunnel degradedGraceMs must be ≥ 0, got ${degradedGraceMs}`)
  return {
    localPort,
    accept: options.accept,
    host,
    subdomain: options.subdomain,
    requestTimeoutMs,
    backoff: validateBackoff({ ...DEFAULT_BACKOFF, ...options.backoff }),
    healthIntervalMs,
    healthFailuresBeforeRebuild,
    degradedGraceMs,
    lookup: options.lookup ?? tunnelLookup,
    random: options.random ?? Math.random,
  }
}
