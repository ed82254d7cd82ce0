// How the timeline names a request that a `handshake` step answered: its mark reads "handshake
// 200" and, when its body names no event type (X's, Graph's and Dropbox's are bodiless), its row
// is named after the handshake — so a provider's verification shows as what it was.
import { HANDSHAKES, isHandshakeKind, type HandshakeKind } from '../../../shared/receiver'

/** The handshake a request's recorded fault ({outcome, step, steps}) answered, or null. */
export function answeredHandshake(faultJson: string | null): HandshakeKind | null {
  if (!faultJson || !faultJson.includes('"handshake"')) return null
  try {
    const step = (JSON.parse(faultJson) as { step?: { type?: unknown; kind?: unknown } | null }).step
    return step?.type === 'handshake' && typeof step.kind === 'string' && isHandshakeKind(step.kind) ? step.kind : null
  } catch {
    return null
  }
}

export function handshakeMarkLabel(status: number | null): string {
  return status === null ? 'handshake, no answer' : `handshake ${status}`
}

export function handshakeEventType(kind: HandshakeKind): string {
  return `${HANDSHAKES.entries[kind].label} handshake`
}
