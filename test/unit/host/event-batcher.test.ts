// The engine host's batching of pushed events (pure logic, typed from the shared contract).
import { describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../shared/contract'
import { createEventBatcher } from '../../../shared/contract'

function row(key: string, attempts: number): TimelineRow {
  return {
    key, kind: 'delivery', deliveryId: 1, eventId: key, eventType: 't', status: 'retrying', subscriptionId: 's', endpointId: null,
    attempts, lastStatusCode: 503, firstAt: 1, lastAt: 1, nextAt: null, signature: { state: 'none' }, duplicates: 0, marks: [], clock: { kind: 'wall' },
  }
}

describe('event batcher', () => {
  it('sends each row once per batch, its latest version, and each state event once', () => {
    const batcher = createEventBatcher()
    batcher.push('timeline.upsert', { rows: [row('a', 1), row('b', 1)] })
    batcher.push('clock.state', { mode: 'real', scale: 1, now: 1 })
    batcher.push('timeline.upsert', { rows: [row('a', 2)] })
    batcher.push('clock.state', { mode: 'virtual', scale: 1, now: 2 })
    const batch = batcher.drain()
    expect(batch).toEqual([
      { name: 'clock.state', payload: { mode: 'virtual', scale: 1, now: 2 } },
      { name: 'timeline.upsert', payload: { rows: [row('b', 1), row('a', 2)] } },
    ])
    expect(batcher.drain()).toEqual([])
  })

  it('drops queued rows when the timeline is reset', () => {
    const batcher = createEventBatcher()
    batcher.push('timeline.upsert', { rows: [row('a', 1)] })
    batcher.push('timeline.reset', { total: -1 })
    expect(batcher.drain()).toEqual([{ name: 'timeline.reset', payload: { total: -1 } }])
  })
})
