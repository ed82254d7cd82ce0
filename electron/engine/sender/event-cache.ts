import type { EventStore, StoredEvent } from '../store'

// Event rows are immutable once published and every attempt needs one: keep recent ones.
const EVENT_CACHE_SIZE = 20_000

export function cacheEvents(events: EventStore) {
  const rows = new Map<string, StoredEvent>()
  const remember = (row: StoredEvent) => {
    if (rows.size >= EVENT_CACHE_SIZE) rows.delete(rows.keys().next().value as string)
    rows.set(row.id, row)
  }
  const get = async (id: string): Promise<StoredEvent | undefined> => {
    const hit = rows.get(id)
    if (hit) return hit
    const row = await events.get(id)
    if (row) remember(row)
    return row
  }
  return { get, remember, eventType: async (eventId: string): Promise<string> => (await get(eventId))?.eventType ?? '' }
}
