// What an incident's recorded words become in a scenario: the receiver's answer as a rule step
// (for a file that carries no rules), as the outcome our sender will see, a signature verdict as
// the sending-side fault that reproduces it, and deterministic event ids.
import { createHash } from 'node:crypto'
import type { Step } from '../../../shared/receiver'
import type { SendFaultInput } from '../../../shared/sender'
import { isEventId, UUID_V4_PATTERN } from '../../../shared/sender'

/** The receiver's recorded answer as the step that gives it again; null when it cannot be made. */
export function stepFor(outcome: string | null): Step | null {
  const status = outcome === null ? null : /^http_([1-5]\d\d)$/.exec(outcome)
  if (status) return { type: 'reply', status: Number(status[1]) }
  switch (outcome) {
    case 'timed_out':
    case 'client_gone':
      return { type: 'timeout' }
    case 'closed':
      return { type: 'close' }
    case 'reset':
      return { type: 'reset' }
    case 'malformed':
      return { type: 'malformed' }
    default:
      return null
  }
}

/**
 * The outcome our sender records for a request the receiver answered so; null when it is not
 * certain (a connection closed or garbage written reads differently depending on timing).
 */
export function senderOutcomeFor(outcome: string | null): string | null {
  if (outcome === null) return null
  if (/^http_[1-5]\d\d$/.test(outcome)) return outcome
  switch (outcome) {
    case 'timed_out':
    case 'client_gone':
      return 'timeout'
    case 'reset':
      return 'reset'
    default:
      return null
  }
}

/** The fault that makes our sender's request get this verdict; undefined when none does. */
export function faultsFor(reason: string | null): SendFaultInput[] | undefined {
  switch (reason) {
    case null:
    case 'ok':
      return []
    case 'signature_mismatch':
      return [{ type: 'wrong-secret' }]
    case 'timestamp_too_old':
      return [{ type: 'stale-timestamp' }]
    case 'timestamp_too_new':
      return [{ type: 'future-timestamp' }]
    default:
      return undefined
  }
}

/** An event id kept as it is (msg_…, evt_…, a UUID); anything else (a body, an id and its endpoint) hashed into a UUID, the same on every conversion. */
export function eventIdFor(key: string): string {
  if (UUID_V4_PATTERN.test(key)) return key.toLowerCase()
  if (isEventId(key)) return key
  const hex = createHash('sha256').update(key).digest('hex')
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** The event type a body names (event_type, type or event), else a neutral one. */
export function eventTypeOf(payload: unknown, fallback: string): string {
  if (payload !== null && typeof payload === 'object' && !Array.isArray(payload)) {
    const p = payload as Record<string, unknown>
    for (const field of ['event_type', 'type', 'event']) if (typeof p[field] === 'string' && p[field] !== '') return p[field] as string
  }
  return fallback
}
