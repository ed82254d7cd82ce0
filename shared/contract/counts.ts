// What each number on screen counts, in words: the labels and explanations the UI shows beside a
// count, and the badge's window and threshold. The engine's queries for them are in
// electron/engine/store/counts.ts; docs/ui.md ("What each number counts") says the same in prose.
// A number without a definition here is not shown: a debugging tool's wrong number is worse than
// a missing one.

/** The failure badge looks at deliveries created in the last 24 h of wall time (the seed's window). */
export const FAILURE_RATE_WINDOW_MS = 24 * 60 * 60 * 1000

/** The badge turns red above 5 % failed deliveries (strictly above, as the seed says). */
export const FAILURE_RATE_RED_ABOVE = 0.05

export function failureRateIsRed(rate: number): boolean {
  return rate > FAILURE_RATE_RED_ABOVE
}

/** Failed over created, 0 when nothing was created (no deliveries is not a failure). */
export function failureRate(failed: number, deliveries: number): number {
  return deliveries === 0 ? 0 : failed / deliveries
}

export interface CountWord {
  /** What the UI prints beside the number. */
  label: string
  /** What it counts, for a tooltip. */
  explain: string
}

export const COUNT_WORDS = {
  deliveries: {
    label: 'deliveries',
    explain: 'Deliveries of this subscription, all time: one per event sent to it (a resend or a duplicate copy is a delivery of its own).',
  },
  attempts: {
    label: 'attempts',
    explain: 'HTTP tries of those deliveries, all time, the one in flight included.',
  },
  successes: {
    label: 'attempts succeeded',
    explain: 'Attempts the policy classified as success (a delivery succeeds with its last attempt).',
  },
  failures: {
    label: 'attempts failed',
    explain: 'Attempts the policy classified as a failure, retried or final (one failed delivery holds up to its policy’s maximum of them).',
  },
  duplicates: {
    label: 'duplicate arrivals',
    explain:
      'Requests of these deliveries that reached a Hookloop endpoint with a dedupe key it had already received inside its dedupe window: the arrivals beyond the first. The same number as the dup badges of this subscription’s rows.',
  },
  duplicatesOutside: {
    label: 'duplicate arrivals',
    explain: 'Not known here: this subscription delivers to a URL outside Hookloop, so its consumer sees the arrivals (arrivals are counted at Hookloop endpoints).',
  },
  failureRate24h: {
    label: 'failed / 24 h',
    explain: 'Failed deliveries over the deliveries created in the last 24 h of wall time; red above 5 %.',
  },
  capturedRequests: {
    label: 'requests',
    explain: 'Captured requests in this data folder: every inbound HTTP request the receiver recorded, on every endpoint, those of Hookloop’s own deliveries included.',
  },
  rows: {
    label: 'rows',
    explain: 'Timeline rows under the filters: one per delivery, and one per endpoint and dedupe key for requests that no delivery of Hookloop made.',
  },
  selectedRows: {
    label: 'selected',
    explain: 'Rows Export takes: the row open in the inspector and the Ctrl/⌘-clicked ones, among the rows loaded under the filters.',
  },
} as const satisfies Record<string, CountWord>

/** "3 rows", "1 row": a count with its word. */
export function countText(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`
}
