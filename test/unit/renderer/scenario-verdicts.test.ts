// Which timeline rows a scenario run's expectations are about, and what an export covers.
import { describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../shared/contract'
import type { ScenarioReport } from '../../../shared/scenario'
import { verdictsOf } from '../../../renderer/src/state'
import { exportSelection } from '../../../renderer/src/state/export-selection'

const delivery = (id: number, event: string, eventId: string, copy = false) => ({ delivery_id: id, duplicate_of: copy ? 1 : null, event, subscription: 's', event_id: eventId, event_type: 't', url: '', loop: true, status: 'succeeded' as const, attempts: [] })

describe('verdictsOf', () => {
  it('marks each event id ✓ only when every expectation about it holds, with one line each', () => {
    const report = {
      deliveries: [delivery(1, 'e1', 'id-1'), delivery(2, 'e1', 'id-1', true), delivery(3, 'e2', 'id-2')],
      expectations: [
        { path: 'expect.deliveries[0].status', subject: { kind: 'delivery', event: 'e1', subscription: 's', copy: false, field: 'status' }, label: 'e1 → s: status', ok: true, expected: 'succeeded', actual: 'succeeded', message: '' },
        { path: 'expect.deliveries[1].attempts', subject: { kind: 'delivery', event: 'e2', subscription: 's', copy: false, field: 'attempts' }, label: 'e2 → s: attempts', ok: false, expected: 2, actual: 1, message: '1 attempts, expected 2' },
        { path: 'expect.endpoints[0].requests', subject: { kind: 'endpoint', endpoint: 'shop', field: 'requests' }, label: 'shop: requests', ok: false, expected: 1, actual: 0, message: 'x' },
      ],
    } as unknown as ScenarioReport
    const verdicts = verdictsOf(report)
    expect(verdicts.get('id-1')).toEqual({ ok: true, lines: ['✓ status', '✓ status'] })
    expect(verdicts.get('id-2')).toEqual({ ok: false, lines: ['✗ attempts — 1 attempts, expected 2'] })
  })
})

describe('exportSelection', () => {
  const row = (key: string, kind: 'delivery' | 'received', deliveryId: number | null, requestIds: number[]) =>
    ({ key, kind, deliveryId, marks: requestIds.map((id) => ({ kind: 'request', id })) }) as unknown as TimelineRow
  const rows = [row('d:1', 'delivery', 1, []), row('r:a', 'received', null, [7, 8]), row('d:2', 'delivery', 2, [])]
  const timeline = { rows, index: new Map(rows.map((r, i) => [r.key, i])) }

  it('deliveries by id, receive-only rows by their captured requests, in the timeline order', () => {
    expect(exportSelection(timeline, new Set(['r:a', 'd:1']), null)).toEqual({ keys: ['d:1', 'r:a'], deliveryIds: [1], requestIds: [7, 8] })
    expect(exportSelection(timeline, new Set(), null)).toEqual({ keys: [], deliveryIds: [], requestIds: [] })
  })

  it('takes the inspected row with the picked ones, once, and nothing the filters hide', () => {
    expect(exportSelection(timeline, new Set(['d:1']), 'd:2').keys).toEqual(['d:1', 'd:2'])
    expect(exportSelection(timeline, new Set(['d:1']), 'd:1').keys).toEqual(['d:1'])
    expect(exportSelection(timeline, new Set(['d:9']), null).keys).toEqual([])
  })
})
