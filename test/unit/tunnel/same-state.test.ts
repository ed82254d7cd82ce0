import { describe, expect, it } from 'vitest'
import { sameState } from '../../../electron/engine/tunnel/same-state'
import type { TunnelState } from '../../../shared/tunnel'

// The manager emits a state only when it differs from the last one; this comparison replaced a
// JSON comparison, so it must tell apart every field JSON would.
const states: TunnelState[] = [
  { kind: 'stopped' },
  { kind: 'connecting', host: 'https://a.test' },
  { kind: 'online', url: 'https://x.a.test', sockets: 10 },
  { kind: 'degraded', url: 'https://x.a.test', liveSockets: 3, maxSockets: 10 },
  { kind: 'reconnecting', attempt: 2, nextInMs: 1600, lastError: 'HTTP 502' },
  { kind: 'offline', reason: 'refused', status: 403 },
  { kind: 'offline', reason: 'refused' },
]

/** Each state with one field changed at a time. */
function variants(state: TunnelState): TunnelState[] {
  return Object.entries(state)
    .filter(([key]) => key !== 'kind')
    .map(([key, value]) => ({ ...state, [key]: typeof value === 'number' ? value + 1 : `${String(value)}!` }) as TunnelState)
}

describe('sameState', () => {
  it('says a state equals a copy of itself', () => {
    for (const state of states) expect(sameState(state, { ...state })).toBe(true)
  })

  it('tells apart states that JSON tells apart', () => {
    for (const a of states)
      for (const b of [...states, ...states.flatMap(variants)]) expect(sameState(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(JSON.stringify(a) === JSON.stringify(b))
  })
})
