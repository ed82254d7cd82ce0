// The public tunnel's states and notices, shared by the engine (which reports them), the CLI and
// the UI (which show them). One union per channel; every switch over them is exhaustive.

/** What the tunnel is doing now. Reported on every change, never twice in a row unchanged. */
export type TunnelState =
  /** Not started, or stopped on request. */
  | { kind: 'stopped' }
  /** Asking the tunnel server for a public URL, opening sockets, checking the URL works. */
  | { kind: 'connecting'; host: string }
  /** Every socket the server allows is open and the public URL answered a health check. */
  | { kind: 'online'; url: string; sockets: number }
  /** The public URL works, but fewer sockets are open than the server allows. */
  | { kind: 'degraded'; url: string; liveSockets: number; maxSockets: number }
  /** The tunnel died (or could not be opened); the next try starts in `nextInMs`. */
  | { kind: 'reconnecting'; attempt: number; nextInMs: number; lastError: string }
  /** The tunnel server refused (4xx): Hookloop does not retry until started again. */
  | { kind: 'offline'; reason: string; status?: number }

export type TunnelStateKind = TunnelState['kind']

/** Things worth telling the user that are not a state of their own. */
export type TunnelNotice =
  /** The public URL is not the one asked for (a taken subdomain) or not the one it was before a rebuild. */
  | {
      kind: 'url-changed'
      url: string
      /** The URL before the rebuild, when there was one. */
      previousUrl?: string
      /** The subdomain the user asked for, when it was not granted. */
      requestedSubdomain?: string
      assignedSubdomain: string
    }
  /** A request came through the tunnel but nothing listens on the receiver's port. */
  | { kind: 'local-unreachable'; port: number; error: string }

export interface TunnelEvents {
  state: TunnelState
  notice: TunnelNotice
}

/** One line for the CLI and the status bar. */
export function describeTunnelState(state: TunnelState): string {
  switch (state.kind) {
    case 'stopped':
      return 'tunnel stopped'
    case 'connecting':
      return `tunnel connecting to ${state.host}`
    case 'online':
      return `tunnel online at ${state.url} (${state.sockets} sockets)`
    case 'degraded':
      return `tunnel degraded at ${state.url}: ${state.liveSockets} of ${state.maxSockets} sockets open`
    case 'reconnecting':
      return `tunnel reconnecting (attempt ${state.attempt}) in ${formatMs(state.nextInMs)}: ${state.lastError}`
    case 'offline':
      return `tunnel offline: ${state.reason}`
    default: {
      const never: never = state
      return never
    }
  }
}

export function describeTunnelNotice(notice: TunnelNotice): string {
  switch (notice.kind) {
    case 'url-changed':
      if (notice.requestedSubdomain !== undefined) {
        return `subdomain "${notice.requestedSubdomain}" was not granted (taken?); the public URL is ${notice.url}`
      }
      return `the public URL changed from ${notice.previousUrl ?? '(none)'} to ${notice.url}: update the URL configured at your provider`
    case 'local-unreachable':
      return `a request came through the tunnel but nothing answers on port ${notice.port} (${notice.error})`
    default: {
      const never: never = notice
      return never
    }
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
