// The table view's columns: the seed panel's fields, headed in words.

/** Each column's header in words; the field name it has in exports and the feed is in its tooltip. */
export const COLUMNS = [
  { field: 'event_id', words: 'Event id' },
  { field: 'event_type', words: 'Event type' },
  { field: 'status', words: 'Status' },
  { field: 'attempts', words: 'Attempts' },
  { field: 'status_code', words: 'Status code' },
  { field: 'last_attempt_at', words: 'Last attempt' },
  { field: 'next_attempt_at', words: 'Next attempt' },
] as const
