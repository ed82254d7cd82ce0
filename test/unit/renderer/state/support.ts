import type { TimelineRow } from '../../../../shared/contract'

/** A delivery row on the wall clock, retrying after a 503, its next attempt 2 minutes on; `patch` sets what a test is about. */
export function timelineRow(key: string, firstAt: number, patch: Partial<TimelineRow> = {}): TimelineRow {
  return {
    key,
    kind: 'delivery',
    deliveryId: 1,
    eventId: `evt-${key}`,
    eventType: 'booking.created',
    status: 'retrying',
    subscriptionId: 'sub-1',
    endpointId: null,
    attempts: 1,
    lastStatusCode: 503,
    firstAt,
    lastAt: firstAt,
    nextAt: firstAt + 120_000,
    signature: { state: 'valid' },
    duplicates: 0,
    marks: [{ kind: 'attempt', id: 1, n: 1, at: firstAt, durationMs: 5, tone: 'retrying', label: '503', nextAt: firstAt + 120_000 }],
    clock: { kind: 'wall' },
    ...patch,
  }
}
