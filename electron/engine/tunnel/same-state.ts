import type { TunnelState } from '../../../shared/tunnel'

/** Whether two states say the same (setState runs at every socket change: no JSON per call). */
export function sameState(a: TunnelState, b: TunnelState): boolean {
  switch (a.kind) {
    case 'stopped':
      return b.kind === 'stopped'
    case 'connecting':
      return b.kind === 'connecting' && a.host === b.host
    case 'online':
      return b.kind === 'online' && a.url === b.url && a.sockets === b.sockets
    case 'degraded':
      return b.kind === 'degraded' && a.url === b.url && a.liveSockets === b.liveSockets && a.maxSockets === b.maxSockets
    case 'reconnecting':
      return b.kind === 'reconnecting' && a.attempt === b.attempt && a.nextInMs === b.nextInMs && a.lastError === b.lastError
    case 'offline':
      return b.kind === 'offline' && a.reason === b.reason && a.status === b.status
    default: {
      const never: never = a
      return never
    }
  }
}
