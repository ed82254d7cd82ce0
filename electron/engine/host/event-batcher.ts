// Push events leave in batches: a flood of webhooks becomes one frame per flush interval with
// each timeline row at most once (the latest version wins) and each state event at most once.
import type { EventMessage, EventName, EventPayloads, TimelineRow } from '../../../shared/contract'

export interface EventBatcher {
  push<E extends EventName>(name: E, payload: EventPayloads[E]): void
  /** Takes what is queued, coalesced; empty when nothing is. */
  drain(): EventMessage[]
  readonly size: number
}

export function createEventBatcher(): EventBatcher {
  let rows = new Map<string, TimelineRow>()
  // Latest payload per non-row event, in first-seen order.
  let latest = new Map<EventName, EventMessage>()
  let reset: EventMessage<'timeline.reset'> | null = null

  return {
    push(name, payload) {
      if (name === 'timeline.upsert') {
        for (const row of (payload as EventPayloads['timeline.upsert']).rows) {
          rows.delete(row.key) // re-insert so the order follows the latest change
          rows.set(row.key, row)
        }
        return
      }
      if (name === 'timeline.reset') {
        // A reset makes queued row updates moot: the UI re-reads the timeline.
        rows = new Map()
        reset = { name: 'timeline.reset', payload: payload as EventPayloads['timeline.reset'] }
        return
      }
      latest.delete(name)
      latest.set(name, { name, payload } as EventMessage)
    },
    drain() {
      const out: EventMessage[] = [...latest.values()]
      if (reset) out.push(reset)
      if (rows.size > 0) out.push({ name: 'timeline.upsert', payload: { rows: [...rows.values()] } })
      rows = new Map()
      latest = new Map()
      reset = null
      return out
    },
    get size() {
      return rows.size + latest.size + (reset ? 1 : 0)
    },
  }
}
