// The top bar's request count is read from the store; it reads again when the engine says rows
// changed, including rows the timeline's filters keep off screen (real traffic while the timeline
// follows a simulation), not only on its few-second timer.
import { describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../shared/contract'
import { applyBatch, useApp } from '../../../renderer/src/state'

const received: TimelineRow = {
  key: 'r:ep-1:evt_real',
  kind: 'received',
  deliveryId: null,
  eventId: 'evt_real',
  eventType: 'invoice.paid',
  status: 'received',
  subscriptionId: null,
  endpointId: 'ep-1',
  attempts: 1,
  lastStatusCode: 200,
  firstAt: Date.UTC(2026, 0, 1),
  lastAt: Date.UTC(2026, 0, 1),
  nextAt: null,
  signature: { state: 'valid' },
  duplicates: 0,
  marks: [{ kind: 'request', id: 7, n: 1, at: Date.UTC(2026, 0, 1), durationMs: 3, tone: 'ok', label: '200', nextAt: null }],
  clock: { kind: 'wall' },
}

describe('store version', () => {
  it('moves on every batch that changes rows, whether or not the filters show them', () => {
    useApp.setState({ filter: { clock: 'sim-1' } })
    const before = useApp.getState().storeVersion
    applyBatch([{ name: 'timeline.upsert', payload: { rows: [received] } }])
    expect(useApp.getState().timeline.rows).toEqual([])
    expect(useApp.getState().storeVersion).toBe(before + 1)
    applyBatch([{ name: 'clock.state', payload: useApp.getState().snapshot?.clock as never }])
    expect(useApp.getState().storeVersion).toBe(before + 1)
  })
})
