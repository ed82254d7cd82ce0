// Which of a run's deliveries its expectations are about, and what an export covers.
import { describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../../shared/contract'
import type { ScenarioReport } from '../../../../shared/scenario'
import { verdictsOf } from '../../../../renderer/src/state'
import { exportSelection } from '../../../../renderer/src/state/export-selection'

const delivery = (id: number, event: string, eventId: string, copy = false) => ({ delivery_id: id, duplicate_of: copy ? 1 : null, event, subscription: 's', event_id: eventId, event_type: 't', url: '', loop: true, status: 'succeeded' as const, attempts: [] })

describe('verdictsOf', () => {
  const about = (event: string, field: string, copy = false, resend?: number) => ({ kind: 'delivery', event, subscription: 's', copy, ...(resend === undefined ? {} : { resend }), field })
  const expectation = (subject: ReturnType<typeof about>, ok: boolean, message = '') => ({ path: 'p', subject, label: 'l', ok, expected: null, actual: null, message })

  it('marks each of the run’s deliveries ✓ only when every expectation about it holds, with one line each', () => {
    const report = {
      deliveries: [delivery(1, 'e1', 'id-1'), delivery(2, 'e1', 'id-1', true), delivery(3, 'e2', 'id-2')],
      expectations: [
        expectation(about('e1', 'status'), true),
        expectation(about('e2', 'attempts'), false, '1 attempts, expected 2'),
        { path: 'expect.endpoints[0].requests', subject: { kind: 'endpoint', endpoint: 'shop', field: 'requests' }, label: 'shop: requests', ok: false, expected: 1, actual: 0, message: 'x' },
      ],
    } as unknown as ScenarioReport
    const verdicts = verdictsOf(report)
    expect(verdicts.get(1)).toEqual({ ok: true, lines: ['✓ status'] })
    expect(verdicts.get(3)).toEqual({ ok: false, lines: ['✗ attempts — 1 attempts, expected 2'] })
    // The duplicate fault's copy shares the event id, but no expectation was about it.
    expect(verdicts.has(2)).toBe(false)
  })

  it('keys verdicts by the run’s deliveries, never by event id: a row elsewhere with that id is not the run’s', () => {
    const report = {
      deliveries: [delivery(7, 'e1', 'evt_shared')],
      expectations: [expectation(about('e1', 'status'), false, 'failed, expected succeeded')],
    } as unknown as ScenarioReport
    const verdicts = verdictsOf(report)
    expect([...verdicts.keys()]).toEqual([7])
    expect((verdicts as Map<unknown, unknown>).has('evt_shared')).toBe(false)
  })

  it('an expectation about the copy or the n-th resend marks that delivery alone', () => {
    const report = {
      deliveries: [delivery(1, 'e1', 'id-1'), delivery(2, 'e1', 'id-1', true), { ...delivery(3, 'e1', 'id-1'), resend: 1 }],
      expectations: [expectation(about('e1', 'duplicates', true), false, 'not flagged'), expectation(about('e1', 'status', false, 1), true)],
    } as unknown as ScenarioReport
    const verdicts = verdictsOf(report)
    expect([...verdicts.entries()]).toEqual([
      [2, { ok: false, lines: ['✗ duplicates — not flagged'] }],
      [3, { ok: true, lines: ['✓ status'] }],
    ])
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
