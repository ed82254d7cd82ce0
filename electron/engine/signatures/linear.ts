import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Linear: hex HMAC-SHA256 of the body; the time travels inside the body as `webhookTimestamp`
// (Unix milliseconds) and must be within a minute of now.
function webhookTimestamp(body: Uint8Array): { value: number; what: string } | { note: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(body).toString('utf8'))
  } catch {
    return { note: 'time not checked: the body is not JSON' }
  }
  const ms = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>).webhookTimestamp : undefined
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return { note: 'time not checked: the body has no numeric webhookTimestamp' }
  return { value: Math.round(ms / 1000), what: 'webhookTimestamp in the body' }
}

export const linear = hmacScheme(SCHEMES.linear, { signatureHeader: 'linear-signature', encoding: 'hex', template: '{body}', idHeader: 'linear-delivery', bodyTimestamp: webhookTimestamp })
