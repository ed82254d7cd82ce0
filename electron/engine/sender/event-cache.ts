import type { EventStatements, StoredEvent } from '../store'

// Event rows are immutable once published and every attempt needs one: keep recent ones.
const EVENT_CACHE_SIZE = 20_000

export function cacheEvents(events: EventStatements) {
  const rows = new Map<string, StoredEvent>()
  const remember = (row: StoredEvent) => {
    if (rows.size >= EVENT_CACHE_SIZE) rows.delete(rows.keys().next().value as string)
    rows.set(row.id, row)
  }
  const get = (id: string): StoredEvent | undefined => {
    const hit = rows.get(id)
    if (hit) return hit
    const row = events.get(id)
    if (row) remember(row)
    return row
  }
  return { get, remember, eventType: (eventId: string): string => get(eventId)?.eventType ?? '' }
}
