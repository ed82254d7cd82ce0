// The table view's columns: the seed panel's fields, headed in words.

/** Each column's header in words; the field name it has in exports and the feed, and what it counts, in its tooltip. */
export const COLUMNS: readonly { field: string; words: string; title?: string }[] = [
  { field: 'event_id', words: 'Event id' },
  { field: 'event_type', words: 'Event type' },
  { field: 'status', words: 'Status' },
  { field: 'attempts', words: 'Attempts', title: "A delivery's attempts; for a received row, the requests that arrived" },
  { field: 'status_code', words: 'Status code' },
  { field: 'last_attempt_at', words: 'Last attempt' },
  { field: 'next_attempt_at', words: 'Next attempt' },
]
