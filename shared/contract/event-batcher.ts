// Pushed events travel in batches: a flood of webhooks becomes one frame per flush interval with
// each timeline row at most once (the latest version wins), each state event at most once, and
// every hold event (each is about its own request). The
// engine host batches what it sends; the renderer merges what arrives between two frames alike.
import { eventMessage, type EventArgs, type EventMessage, type EventName, type TimelineRow } from './messages'

export interface EventBatcher {
  push(...event: EventArgs): void
  add(event: EventMessage): void
  /** Takes what is queued, coalesced; empty when nothing is. */
  drain(): EventMessage[]
  readonly size: number
}

export function createEventBatcher(): EventBatcher {
  let rows = new Map<string, TimelineRow>()
  // Latest payload per non-row event, in first-seen order.
  let latest = new Map<EventName, EventMessage>()
  let reset: EventMessage<'timeline.reset'> | null = null
  // Events about one request each (a hold and its end): every one kept, in order.
  let each: EventMessage[] = []

  function add(event: EventMessage): void {
    switch (event.name) {
      case 'timeline.upsert':
        for (const row of event.payload.rows) {
          rows.delete(row.key) // re-insert so the order follows the latest change
          rows.set(row.key, row)
        }
        return
      case 'timeline.reset':
        // A reset makes queued row updates moot: the UI re-reads the timeline.
        rows = new Map()
        reset = event
        return
      case 'breakpoint.held':
      case 'breakpoint.released':
        each.push(event)
        return
      default:
        latest.delete(event.name)
        latest.set(event.name, event)
    }
  }

  return {
    push: (...args) => add(eventMessage(...args)),
    add,
    drain() {
      const out: EventMessage[] = [...latest.values(), ...each]
      if (reset) out.push(reset)
      if (rows.size > 0) out.push({ name: 'timeline.upsert', payload: { rows: [...rows.values()] } })
      rows = new Map()
      latest = new Map()
      each = []
      reset = null
      return out
    },
    get size() {
      return rows.size + latest.size + each.length + (reset ? 1 : 0)
    },
  }
}
